// Package boltfile is what the packages that keep a bbolt file
// (go.etcd.io/bbolt) share to open it safely: Check, which reads a file
// before bbolt maps it, since bbolt kills the process with SIGBUS when a
// truncated file makes it read past the end of its map; Lock and
// LockShared, the flock that bbolt takes, taken first so that the file
// is checked, and moved aside, while no other process writes it; and
// AsideName, the name a damaged file is moved to. It imports nothing of
// bbolt: the checks follow the layout in bbolt's source
// (https://github.com/etcd-io/bbolt, internal/common: page.go, meta.go,
// types.go).
package boltfile

import "errors"

// ErrLocked is the error of Lock and LockShared when another process
// still holds a conflicting lock on the file after the timeout.
var ErrLocked = errors.New("locked by another process")
