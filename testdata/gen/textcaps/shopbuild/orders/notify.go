package orders

// Notify tells the customer.
func Notify(id string) error {
	return sendMail(id, "shipped")
}
