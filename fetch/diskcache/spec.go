package diskcache

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// diskSpecForm is the form of a disk cache spec, for errors.
const diskSpecForm = "disk:PATH or disk:PATH?max=SIZE"

// OpenSpec opens the Cache that a spec of the form "disk:PATH" or
// "disk:PATH?max=SIZE" names, as a command-line flag gives it (see the
// package fetch/cachespec): OpenWith(PATH, Options{MaxBytes: SIZE}). SIZE
// is a number of bytes with an optional unit, B, KB, MB, GB, TB (powers
// of 1000) or KiB, MiB, GiB, TiB (powers of 1024), in any case, such as
// 100MB or 1GiB, at least 1 MiB; or "none" for no bound; without max, the
// bound is DefaultMaxBytes. The options start at the last "?": a PATH
// that holds a "?" takes one more after it, as in "disk:a?b.db?".
func OpenSpec(spec string) (*Cache, error) {
	path, o, err := parseSpec(spec)
	if err != nil {
		return nil, err
	}
	return OpenWith(path, o)
}

// parseSpec reads "disk:PATH?max=SIZE" for OpenSpec. The options start at the
// last "?": a PATH that holds a "?" takes one more after it, as in
// "disk:a?b.db?" or "disk:a?b.db?max=1GB". SIZE is a number of
// bytes with an optional unit, B, KB, MB, GB, TB (powers of 1000) or KiB,
// MiB, GiB, TiB (powers of 1024), in any case, such as 100MB or 1GiB; at
// least 1 MiB; or "none" for no bound. Without max, the bound is
// DefaultMaxBytes.
func parseSpec(spec string) (string, Options, error) {
	var o Options
	path := strings.TrimPrefix(spec, "disk:")
	if i := strings.LastIndexByte(path, '?'); i >= 0 {
		opts := path[i+1:]
		path = path[:i]
		for opt := range strings.SplitSeq(opts, "&") {
			if opts == "" {
				break
			}
			k, v, _ := strings.Cut(opt, "=")
			switch k {
			case "max":
				n, err := parseDiskSize(v)
				if err != nil {
					return "", o, fmt.Errorf("fetch: cache %q: max=%s: %v", spec, v, err)
				}
				o.MaxBytes = n
			default:
				return "", o, fmt.Errorf("fetch: cache %q: unknown option %q: want %s", spec, opt, diskSpecForm)
			}
		}
	}
	if path == "" {
		return "", o, fmt.Errorf("fetch: cache %q names no file: want %s", spec, diskSpecForm)
	}
	return path, o, nil
}

// diskUnits are the units of parseDiskSize, in lower case.
var diskUnits = map[string]float64{
	"": 1, "b": 1,
	"kb": 1e3, "mb": 1e6, "gb": 1e9, "tb": 1e12,
	"kib": 1 << 10, "mib": 1 << 20, "gib": 1 << 30, "tib": 1 << 40,
}

// parseDiskSize reads a bound for Options.MaxBytes (see
// parseSpec): "none" is -1.
func parseDiskSize(s string) (int64, error) {
	const want = "want a size such as 100MB or 1GiB, at least 1MiB, or none"
	if strings.EqualFold(s, "none") {
		return -1, nil
	}
	i := strings.IndexFunc(s, func(r rune) bool { return (r < '0' || r > '9') && r != '.' })
	if i < 0 {
		i = len(s)
	}
	unit, ok := diskUnits[strings.ToLower(s[i:])]
	n, err := strconv.ParseFloat(s[:i], 64)
	if !ok || err != nil {
		return 0, fmt.Errorf("%s", want)
	}
	b := n * unit
	if b < diskMinBytes || b > math.MaxInt64/2 {
		return 0, fmt.Errorf("%s", want)
	}
	return int64(b), nil
}
