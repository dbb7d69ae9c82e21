package view

// SetLastKindRows sets lastKindRows (json_last.go) and returns a func
// that restores it.
func SetLastKindRows(on bool) func() {
	old := lastKindRows
	lastKindRows = on
	return func() { lastKindRows = old }
}
