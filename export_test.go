package robots

// SetSubMin sets the smallest bucket given a sorted literal part, for tests
// of that part on small files, and returns a function that restores it.
func SetSubMin(n int) (restore func()) {
	old := subMin
	subMin = n
	return func() { subMin = old }
}
