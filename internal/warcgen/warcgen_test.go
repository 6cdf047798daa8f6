package warcgen

import (
	"bytes"
	"compress/gzip"
	"io"
	"strings"
	"testing"

	"github.com/robotskit/robots/internal/warc"
)

// TestWrite reads a generated file back with the WARC reader: one
// warcinfo, then request, response and metadata for each capture, each
// its own gzip member, with the mix of statuses.
func TestWrite(t *testing.T) {
	var buf bytes.Buffer
	if err := Write(&buf, Options{Captures: 1000, Seed: 1}); err != nil {
		t.Fatal(err)
	}
	// Each record is a gzip member: 1 + 3 × 1000 of them.
	zr, err := gzip.NewReader(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	members := 0
	zr.Multistream(false)
	src := bytes.NewReader(buf.Bytes())
	zr.Reset(src)
	for {
		zr.Multistream(false)
		if _, err := io.Copy(io.Discard, zr); err != nil {
			t.Fatal(err)
		}
		members++
		if err := zr.Reset(src); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
	}
	if members != 3001 {
		t.Errorf("%d gzip members, want 3001", members)
	}

	r := warc.NewReader(bytes.NewReader(buf.Bytes()))
	types := map[string]int{}
	statuses := map[int]int{}
	for {
		rec, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		types[rec.Type]++
		if rec.Type == "response" {
			resp, err := rec.Response(1 << 20)
			if err != nil {
				t.Fatal(err)
			}
			statuses[resp.StatusCode]++
			if resp.StatusCode == 200 && !strings.Contains(string(resp.Body), "User-agent") && !strings.Contains(string(resp.Body), "<html") {
				t.Errorf("200 body %q", resp.Body)
			}
		}
	}
	if types["warcinfo"] != 1 || types["request"] != 1000 || types["response"] != 1000 || types["metadata"] != 1000 {
		t.Errorf("records %v", types)
	}
	// 78 % + 5 % are 200, 10 % 404: within a few points over 1000 draws.
	if n := statuses[200]; n < 780 || n > 880 {
		t.Errorf("%d of 1000 are 200 (%v)", n, statuses)
	}
	if n := statuses[404]; n < 60 || n > 140 {
		t.Errorf("%d of 1000 are 404 (%v)", n, statuses)
	}
	// The same options write the same bytes.
	var again bytes.Buffer
	Write(&again, Options{Captures: 1000, Seed: 1})
	if !bytes.Equal(buf.Bytes(), again.Bytes()) {
		t.Error("two writes of the same options differ")
	}
}
