package parquet

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	pq "github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"

	"github.com/robotskit/robots/scan"
)

// badStrings are strings that are not valid UTF-8, and some that are:
// a lone continuation byte, bytes that never occur (0xC0, 0xFF), a
// sequence cut short (once before another byte, once at the end), an
// encoded surrogate and an overlong "/", which Go's decoder reads as one
// invalid byte each (https://pkg.go.dev/unicode/utf8#DecodeRuneInString);
// and U+FFFD itself, "é" and a four-byte character, which are valid.
var badStrings = []string{
	"",
	"plain",
	"\x80",
	"a\xffb",
	"\xc0\xaf",
	"\xe2\x82x",
	"x\xe2\x82",
	"\xed\xa0\x80",
	"\xf0\x9f\x98",
	"caf\xe9 \xa2\xe6\xa1\xc6", // windows-1252 and EUC-KR bytes
	"\uFFFD é 😀",
	"User-agent\x00\x01",
}

// jsonString is s as encoding/json writes it and reads it back.
func jsonString(t testing.TB, s string) string {
	t.Helper()
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	var back string
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	return back
}

// TestValidLikeJSON checks that valid replaces invalid bytes exactly as
// encoding/json does, byte for byte.
func TestValidLikeJSON(t *testing.T) {
	for _, s := range badStrings {
		want := jsonString(t, s)
		if got := valid(s); got != want {
			t.Errorf("valid(%q) = %q, want %q as encoding/json", s, got, want)
		}
		if got := string(appendValid([]byte("x"), s)); got != "x"+want {
			t.Errorf("appendValid(x, %q) = %q, want %q", s, got, "x"+want)
		}
	}
}

// FuzzValid checks valid against encoding/json on any string.
func FuzzValid(f *testing.F) {
	for _, s := range badStrings {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := valid(s)
		if want := jsonString(t, s); got != want {
			t.Errorf("valid(%q) = %q, want %q as encoding/json", s, got, want)
		}
		if !utf8.ValidString(got) {
			t.Errorf("valid(%q) = %q, not UTF-8", s, got)
		}
	})
}

// fill sets every field of v, at any depth: each string to s, numbers and
// booleans to values other than zero, each slice to two elements, so
// that a field added to scan.Row is covered without changing the test.
func fill(v reflect.Value, s string) {
	switch v.Kind() {
	case reflect.String:
		v.SetString(s)
	case reflect.Int, reflect.Int64:
		v.SetInt(7)
	case reflect.Float64:
		v.SetFloat(1.5)
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 2, 2))
		for i := range 2 {
			fill(v.Index(i), s)
		}
	case reflect.Struct:
		if v.Type() == reflect.TypeFor[time.Time]() {
			v.Set(reflect.ValueOf(time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)))
			return
		}
		for i := range v.NumField() {
			fill(v.Field(i), s)
		}
	default:
		panic("fill: a field of kind " + v.Kind().String())
	}
}

// TestInvalidUTF8 writes rows with invalid UTF-8 in every string, at
// every depth, and reads the file back with parquet-go: every value of a
// STRING column is valid UTF-8, each row is the row as its JSON line
// reads back (each invalid byte a U+FFFD), and agents.raw holds the
// User-agent values' bytes as written when they are not valid UTF-8,
// null otherwise.
func TestInvalidUTF8(t *testing.T) {
	var rows []scan.Row
	for _, s := range badStrings {
		var r scan.Row
		fill(reflect.ValueOf(&r).Elem(), s)
		r.Agents[1].Value = "valid é"
		rows = append(rows, r)
	}
	out := writeAll(t, rows)

	// What encoding/json makes of the rows.
	var wantRows []scan.Row
	for i := range rows {
		b, err := json.Marshal(&rows[i])
		if err != nil {
			t.Fatal(err)
		}
		var r scan.Row
		if err := json.Unmarshal(b, &r); err != nil {
			t.Fatal(err)
		}
		wantRows = append(wantRows, r)
	}
	compareRows(t, "invalid UTF-8", readAll(t, out, len(rows)), wantRows)

	f, err := pq.OpenFile(bytes.NewReader(out), int64(len(out)))
	if err != nil {
		t.Fatal(err)
	}
	strs := 0
	for _, path := range f.Schema().Columns() {
		l, _ := f.Schema().Lookup(path...)
		if !isString(l.Node) {
			continue
		}
		strs++
		for _, v := range columnValues(t, f, l.ColumnIndex) {
			if !v.IsNull() && !utf8.Valid(v.ByteArray()) {
				t.Errorf("%s: %q is not UTF-8", strings.Join(path, "."), v.ByteArray())
			}
		}
	}
	want := 0
	row := pq.SchemaOf(scan.Row{})
	for _, path := range row.Columns() {
		if l, _ := row.Lookup(path...); isString(l.Node) {
			want++
		}
	}
	if strs != want {
		t.Errorf("%d STRING columns read, want scan.Row's %d", strs, want)
	}

	raw, _ := f.Schema().Lookup("agents", "list", "element", "raw")
	var got [][]byte
	for _, v := range columnValues(t, f, raw.ColumnIndex) {
		if v.IsNull() {
			got = append(got, nil)
		} else {
			got = append(got, bytes.Clone(v.ByteArray()))
		}
	}
	var wantRaw [][]byte
	for _, r := range rows {
		for _, a := range r.Agents {
			if utf8.ValidString(a.Value) {
				wantRaw = append(wantRaw, nil)
			} else {
				wantRaw = append(wantRaw, []byte(a.Value))
			}
		}
	}
	if !reflect.DeepEqual(got, wantRaw) {
		t.Errorf("agents.raw = %q\nwant %q", got, wantRaw)
	}
}

// isString reports whether a column holds strings: its logical type is
// STRING.
func isString(n pq.Node) bool {
	lt := n.Type().LogicalType()
	if lt == nil {
		return false
	}
	_, ok := lt.Value.(*format.StringType)
	return ok
}

// columnValues reads every value of a column of f, in every row group.
func columnValues(t *testing.T, f *pq.File, column int) []pq.Value {
	t.Helper()
	var all []pq.Value
	for _, rg := range f.RowGroups() {
		pages := rg.ColumnChunks()[column].Pages()
		for {
			p, err := pages.ReadPage()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			vals := make([]pq.Value, p.NumValues())
			n, err := p.Values().ReadValues(vals)
			if err != nil && !errors.Is(err, io.EOF) {
				t.Fatal(err)
			}
			for _, v := range vals[:n] {
				all = append(all, v.Clone())
			}
			pq.Release(p)
		}
		pages.Close()
	}
	return all
}
