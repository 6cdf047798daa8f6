package scan

import (
	"fmt"
	"hash/fnv"
	"strconv"
	"strings"
)

// A Shard is one of Count disjoint parts of a run's inputs: the inputs
// whose key hashes to Index (ShardOf). The shards 0 to Count-1 of the
// same inputs together hold every input, so Count machines given the
// same inputs share the work. The zero Shard holds every input.
type Shard struct {
	Index, Count uint64
}

// ParseShard reads "i/n" (0 ≤ i < n), such as "0/4" or "199/200"; "" is
// the zero Shard.
func ParseShard(s string) (Shard, error) {
	if s == "" {
		return Shard{}, nil
	}
	a, b, ok := strings.Cut(s, "/")
	i, erri := strconv.ParseUint(strings.TrimSpace(a), 10, 64)
	n, errn := strconv.ParseUint(strings.TrimSpace(b), 10, 64)
	if !ok || erri != nil || errn != nil || n == 0 || i >= n {
		return Shard{}, fmt.Errorf("shard must be i/n with 0 ≤ i < n, such as 0/4 or $JOB_COMPLETION_INDEX/200; got %q", s)
	}
	return Shard{Index: i, Count: n}, nil
}

// Has reports whether the input of key is in the shard: always for the
// zero Shard.
func (s Shard) Has(key string) bool {
	return s.Count == 0 || ShardOf(key, s.Count) == s.Index
}

// ShardOf returns the shard of a key among n: its FNV-1a 64-bit hash
// (Fowler, Noll and Vo, http://www.isthe.com/chongo/tech/comp/fnv/;
// draft-eastlake-fnv, https://datatracker.ietf.org/doc/draft-eastlake-fnv/)
// modulo n, which must be positive, so that other tools can work out a shard's inputs. The key of
// an input is the argument as given, the path of a file inside its
// directory argument with forward slashes ("sub/example.com"), or the line
// of an @LIST as written, without Job.Base.
func ShardOf(key string, n uint64) uint64 {
	h := fnv.New64a()
	h.Write([]byte(key))
	return h.Sum64() % n
}
