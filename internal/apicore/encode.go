package apicore

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"reflect"
	"strings"
	"unicode/utf8"
)

// A List is a JSON array whose elements are made one at a time, as they
// are written: a field of this type in a value that Encode writes is
// encoded as the array of At(0), …, At(Len()-1).
type List interface {
	Len() int
	At(i int) any
}

// Encode writes v as json.Encoder with SetIndent("", "  ") does, but
// with the elements of each top-level list field of v (a slice, or a
// list) encoded one by one, so that memory holds one element at a time,
// not the answer. A v that is not a struct (or a pointer to one), or one
// with embedded fields, is encoded whole. It looks at ctx every 64
// elements.
func Encode(ctx context.Context, w io.Writer, v any) error {
	rv := reflect.ValueOf(v)
	for rv.Kind() == reflect.Pointer && !rv.IsNil() {
		rv = rv.Elem()
	}
	if rv.Kind() != reflect.Struct || !streamable(rv.Type()) {
		b, err := json.MarshalIndent(v, "", "  ")
		if err != nil {
			return err
		}
		_, err = w.Write(append(b, '\n'))
		return err
	}
	ew := &errWriter{w: w}
	first := true
	t := rv.Type()
	for i := 0; i < t.NumField() && ew.err == nil; i++ {
		sf := t.Field(i)
		name, omit, ok := jsonField(sf)
		if !ok {
			continue
		}
		fv := rv.Field(i)
		if omit && emptyValue(fv) {
			continue
		}
		if first {
			ew.str("{\n  ")
			first = false
		} else {
			ew.str(",\n  ")
		}
		key, _ := json.Marshal(name)
		ew.bytes(key)
		ew.str(": ")
		var l List
		switch {
		case fv.Type().Implements(listType):
			l = fv.Interface().(List)
		case fv.Kind() == reflect.Slice && !fv.IsNil() && fv.Type().Elem().Kind() != reflect.Uint8 && !fv.Type().Implements(marshalerType):
			l = sliceList{fv}
		default:
			b, err := json.MarshalIndent(fv.Interface(), "  ", "  ")
			if err != nil {
				return err
			}
			ew.bytes(b)
			continue
		}
		if err := writeList(ctx, ew, l); err != nil {
			return err
		}
	}
	if first {
		ew.str("{}\n")
	} else {
		ew.str("\n}\n")
	}
	return ew.err
}

var (
	listType      = reflect.TypeFor[List]()
	marshalerType = reflect.TypeFor[json.Marshaler]()
)

// writeList writes the array of l's elements, as a top-level field's
// value.
func writeList(ctx context.Context, ew *errWriter, l List) error {
	n := l.Len()
	if n == 0 {
		ew.str("[]")
		return ew.err
	}
	ew.str("[")
	var buf bytes.Buffer // reused: json.MarshalIndent's work, with one allocation less
	for i := 0; i < n; i++ {
		if i%64 == 63 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		if ew.err != nil {
			return ew.err
		}
		if i > 0 {
			ew.str(",")
		}
		ew.str("\n    ")
		b, err := json.Marshal(l.At(i))
		if err != nil {
			return err
		}
		buf.Reset()
		if err := json.Indent(&buf, b, "    ", "  "); err != nil {
			return err
		}
		ew.bytes(buf.Bytes())
	}
	ew.str("\n  ]")
	return ew.err
}

// sliceList is a slice as a list.
type sliceList struct{ v reflect.Value }

func (s sliceList) Len() int     { return s.v.Len() }
func (s sliceList) At(i int) any { return s.v.Index(i).Interface() }

// streamable reports whether Encode can write the fields of t itself:
// it has no embedded field, no field with the ",string" option, and no
// MarshalJSON or MarshalText of its own.
func streamable(t reflect.Type) bool {
	if t.Implements(marshalerType) || reflect.PointerTo(t).Implements(marshalerType) ||
		t.Implements(reflect.TypeFor[interface{ MarshalText() ([]byte, error) }]()) {
		return false
	}
	for i := 0; i < t.NumField(); i++ {
		sf := t.Field(i)
		if sf.Anonymous {
			return false
		}
		if _, opts, _ := strings.Cut(sf.Tag.Get("json"), ","); hasOption(opts, "string") {
			return false
		}
	}
	return true
}

// jsonField reads the json tag of an exported field as encoding/json
// does: its name, whether empty values are left out, and whether it is
// encoded at all.
func jsonField(sf reflect.StructField) (name string, omit, ok bool) {
	if !sf.IsExported() {
		return "", false, false
	}
	tag := sf.Tag.Get("json")
	if tag == "-" {
		return "", false, false
	}
	name, opts, _ := strings.Cut(tag, ",")
	if name == "" {
		name = sf.Name
	}
	return name, hasOption(opts, "omitempty"), true
}

func hasOption(opts, o string) bool {
	for opts != "" {
		var cur string
		cur, opts, _ = strings.Cut(opts, ",")
		if cur == o {
			return true
		}
	}
	return false
}

// emptyValue is encoding/json's test for omitempty.
func emptyValue(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool:
		return !v.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return v.Int() == 0
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return v.Uint() == 0
	case reflect.Float32, reflect.Float64:
		return v.Float() == 0
	case reflect.Interface, reflect.Pointer:
		return v.IsNil()
	}
	return false
}

// An errWriter keeps the first write error and writes nothing after it.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) bytes(b []byte) {
	if e.err == nil {
		_, e.err = e.w.Write(b)
	}
}

func (e *errWriter) str(s string) {
	if e.err == nil {
		_, e.err = io.WriteString(e.w, s)
	}
}

// A countWriter counts what is written to it, and fails once it is past
// limit (0: no limit), so that counting a large answer stops early.
type countWriter struct {
	n, limit int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	c.n += int64(len(p))
	if c.limit > 0 && c.n > c.limit {
		return len(p), ErrTooLong
	}
	return len(p), nil
}

// ErrTooLong is the error of a writer that takes no more of an answer
// (Size stops counting with it).
var ErrTooLong = errors.New("the answer is longer than the limit")

// Size is how many octets Encode writes for v, and whether that is more
// than limit (it stops counting there); 0 means no limit.
func Size(ctx context.Context, v any, limit int64) (int64, bool, error) {
	c := &countWriter{limit: limit}
	err := Encode(ctx, c, v)
	if err == ErrTooLong {
		return c.n, true, nil
	}
	return c.n, false, err
}

// JSONLen is the length of s as encoding/json writes it, quotes included:
// '"' and '\\' escaped, control characters, '<', '>', '&', U+2028 and
// U+2029 as \uXXXX (or \n, \r, \t), invalid UTF-8 as \ufffd.
func JSONLen(s string) int {
	n := 2
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\' || c == '\n' || c == '\r' || c == '\t':
				n += 2
			case c < 0x20 || c == '<' || c == '>' || c == '&':
				n += 6
			default:
				n++
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			n += 6
		case r == '\u2028' || r == '\u2029':
			n += 6
		default:
			n += size
		}
		i += size
	}
	return n
}
