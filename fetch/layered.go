package fetch

import (
	"context"
	"errors"
)

// Layered returns a Cache made of caches, fastest first, such as
// Layered(NewMemoryCache(0), redisCache).
//
// Get asks each layer in turn and returns the first entry found, after
// putting it into the layers above that answered (so that the next Get
// is served by the fastest); a layer that fails is skipped, and Get fails
// only when every layer does. Put writes every layer and returns the
// failures joined (errors.Join). So a crawler fleet keeps working through
// an outage of a shared layer: what its memory holds is still served, and
// what it fetches is still kept there. Nil caches are ignored.
func Layered(caches ...Cache) Cache {
	var l layered
	for _, c := range caches {
		if c != nil {
			l = append(l, c)
		}
	}
	if len(l) == 1 {
		return l[0]
	}
	return l
}

// layered is the Cache Layered returns: its layers, fastest first.
type layered []Cache

// Get implements Cache; see Layered.
func (l layered) Get(ctx context.Context, key string) (*Entry, error) {
	var errs []error
	var bad []bool // bad[i]: layer i failed; made on the first failure
	for i, c := range l {
		e, err := c.Get(ctx, key)
		if err != nil {
			if bad == nil {
				bad = make([]bool, len(l))
			}
			bad[i] = true
			errs = append(errs, err)
			continue
		}
		if e == nil {
			continue
		}
		// Backfill only the layers above that answered: one that has
		// just failed would most likely fail again, and slowly. A failed
		// backfill costs only a slower Get next time.
		for j, up := range l[:i] {
			if bad == nil || !bad[j] {
				_ = up.Put(ctx, key, e)
			}
		}
		return e, nil
	}
	if len(errs) > 0 && len(errs) == len(l) {
		return nil, errors.Join(errs...)
	}
	return nil, nil
}

// Put implements Cache; see Layered.
func (l layered) Put(ctx context.Context, key string, e *Entry) error {
	if e == nil {
		return errNilEntry
	}
	var errs []error
	for _, c := range l {
		if err := c.Put(ctx, key, e); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}
