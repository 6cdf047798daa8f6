package robots

import "unsafe"

// words returns how many 8-byte words n values of type T take, rounded up.
func words[T any](n int) int {
	var t T
	return (n*int(unsafe.Sizeof(t)) + 7) / 8
}

// carve returns the first n values of type T of *buf and moves *buf past
// them, rounded up to a word. T must hold no pointers, since the garbage
// collector does not scan a []uint64, and need no more than 8-byte
// alignment, which every word has on every architecture.
func carve[T any](buf *[]uint64, n int) []T {
	if n == 0 {
		return nil
	}
	s := unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(*buf))), n)
	*buf = (*buf)[words[T](n):]
	return s
}
