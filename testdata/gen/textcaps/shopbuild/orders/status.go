package orders

import "fmt"

// Status is an order's state.
type Status int

// String names the status.
func (s Status) String() string {
	return fmt.Sprintf("status-%d", s)
}

// Next moves an order on.
func Next(s Status) Status {
	var total float64 = s
	return Status(total + 1)
}
