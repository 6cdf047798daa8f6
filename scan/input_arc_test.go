package scan_test

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/png"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/robotskit/robots/scan"
)

// arcRecord is one record of an ARC file: a URL record's header line and
// the HTTP response it archives.
type arcRecord struct {
	url, ip, date, typ string
	response           string
}

// arcFile lays out an ARC file as the Internet Archive's format describes
// it (https://archive.org/web/researcher/ArcFileFormat.php): a version
// block — "filedesc://NAME IP DATE text/plain LENGTH", then the version
// line ("1 0 Alexa Internet" for v1) and the line naming the fields of URL
// records — then each record, its header line "URL IP-address
// Archive-date Content-type Archive-length" (v1) followed by Archive-length
// bytes and a newline. With gzipped, each record is its own gzip member,
// as in .arc.gz files. It returns the file and each record's offset, the
// version block's first.
func arcFile(name string, version int, gzipped bool, recs ...arcRecord) ([]byte, []int64) {
	fields := "URL IP-address Archive-date Content-type Archive-length"
	if version == 2 {
		fields = "URL IP-address Archive-date Content-type Result-code Checksum Location Offset Filename Archive-length"
	}
	// The block's length counts the empty line that ends it, as the
	// format's example does ("... text/plain 76" for v1).
	block := fmt.Sprintf("%d 0 Alexa Internet\n%s\n\n", version, fields)
	parts := []string{fmt.Sprintf("filedesc://%s 0.0.0.0 19960923142103 text/plain %d\n%s", name, len(block), block)}
	for _, r := range recs {
		head := fmt.Sprintf("%s %s %s %s %d", r.url, r.ip, r.date, r.typ, len(r.response))
		if version == 2 {
			status := strings.Fields(r.response)[1]
			head = fmt.Sprintf("%s %s %s %s %s - - 0 %s %d", r.url, r.ip, r.date, r.typ, status, name, len(r.response))
		}
		parts = append(parts, head+"\n"+r.response+"\n")
	}
	var out []byte
	var offs []int64
	for _, p := range parts {
		b := []byte(p)
		if gzipped {
			b = inGzip(b)
		}
		offs = append(offs, int64(len(out)))
		out = append(out, b...)
	}
	return out, offs
}

// arcRecords are robots.txt captures of 1996, as an ARC file holds them.
var arcRecords = []arcRecord{
	{"http://www.example.com/robots.txt", "192.0.2.1", "19960923142103", "text/plain",
		"HTTP/1.0 200 OK\nContent-Type: text/plain\n\nUser-agent: *\nDisallow: /cgi-bin/\n"},
	{"http://www.example.org/robots.txt", "192.0.2.2", "19960923142110", "text/html",
		"HTTP/1.0 404 Not Found\nContent-Type: text/html\n\n<html>not found</html>\n"},
}

// TestReaderARC: an ARC file, the format before WARC
// (https://archive.org/web/researcher/ArcFileFormat.php), v1 or v2, plain
// or one gzip member per record, or a piece of one that starts at a URL
// record, is one error at offset 0 wrapping ErrARC, and no capture — not a
// robots.txt named after the file. Its name does not matter.
func TestReaderARC(t *testing.T) {
	v1, _ := arcFile("IA-001102.arc", 1, false, arcRecords...)
	v1gz, _ := arcFile("IA-001102.arc", 1, true, arcRecords...)
	v2, _ := arcFile("IA-2006062.arc", 2, false, arcRecords...)
	v2gz, offs := arcFile("IA-2006062.arc", 2, true, arcRecords...)
	_, plainOffs := arcFile("IA-001102.arc", 1, false, arcRecords...)
	for _, tt := range []struct {
		name, path string
		data       []byte
	}{
		{"v1", "IA-001102.arc", v1},
		{"v1, a gzip member per record", "IA-001102.arc.gz", v1gz},
		{"v2", "IA-2006062.arc", v2},
		{"v2, a gzip member per record", "IA-2006062.arc.gz", v2gz},
		{"named as a robots.txt", "www.example.com", v1},
		{"named as a WARC file", "crawl.warc.gz", v1gz},
		{"v1 from its first URL record", "part.arc", v1[plainOffs[1]:]},
		{"v2 from its second URL record, gzip", "part.arc.gz", v2gz[offs[2]:]},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := scan.NewReader(tt.path, bytes.NewReader(tt.data))
			cs, order := inReadAll(t, r)
			if len(cs) != 0 || !slices.Equal(order, []string{"error@0"}) {
				t.Fatalf("got %v, want [error@0]", order)
			}
			_, err := scan.NewReader(tt.path, bytes.NewReader(tt.data)).Next()
			var ie *scan.InputError
			if !errors.As(err, &ie) || !errors.Is(err, scan.ErrARC) || ie.Source != tt.path {
				t.Errorf("error %v, want an *InputError wrapping ErrARC", err)
			}
		})
	}
}

// TestReaderBinary: an input that is neither WARC, JSON lines nor text —
// a PDF, a zip archive, an image, a tar.gz, random bytes — is one error at
// offset 0 wrapping ErrBinary and no capture; a text in any encoding is a
// robots.txt, even with a stray NUL byte, NUL padding or ISO-2022 escapes.
// Binary data bytes and signatures are those of the WHATWG MIME Sniffing
// Standard (https://mimesniff.spec.whatwg.org/#binary-data-byte).
func TestReaderBinary(t *testing.T) {
	rules := "User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nAllow: /\n"
	random := make([]byte, 4096)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range random {
		random[i] = byte(rng.Uint32())
	}
	var zipped bytes.Buffer
	zw := zip.NewWriter(&zipped)
	f, _ := zw.Create("robots.txt")
	f.Write([]byte(rules))
	zw.Close()
	var tarred bytes.Buffer
	tw := tar.NewWriter(&tarred)
	tw.WriteHeader(&tar.Header{Name: "robots.txt", Mode: 0o644, Size: int64(len(rules))})
	tw.Write([]byte(rules))
	tw.Close()
	var pic bytes.Buffer
	png.Encode(&pic, image.NewGray(image.Rect(0, 0, 8, 8)))
	pdf := "%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n"

	for _, tt := range []struct {
		name string
		data []byte
		kind string // "" for a robots.txt read
	}{
		{"PDF", []byte(pdf), "application/pdf"},
		{"gzip PDF", inGzip([]byte(pdf)), "application/pdf"},
		{"zip", zipped.Bytes(), "application/zip"},
		{"PNG", pic.Bytes(), "image/png"},
		{"tar.gz", inGzip(tarred.Bytes()), "control characters"},
		{"gzip twice", inGzip(inGzip([]byte(rules))), "application/x-gzip"},
		{"random bytes", random, "control characters"},
		{"gzip random bytes", inGzip(random), "control characters"},
		{"NUL bytes", make([]byte, 100), "NUL bytes"},

		{"UTF-8", []byte(rules), ""},
		{"UTF-8 BOM", []byte("\xef\xbb\xbf" + rules), ""},
		{"UTF-16LE BOM", utf16Text(rules, true, true), ""},
		{"UTF-16BE BOM", utf16Text(rules, false, true), ""},
		{"UTF-16LE", utf16Text(rules, true, false), ""},
		{"gzip UTF-16BE BOM", inGzip(utf16Text(rules, false, true)), ""},
		{"UTF-32LE BOM", utf32LE("\ufeff" + rules), ""},
		{"windows-1252", []byte("# R\xe9pertoire priv\xe9\n" + rules), ""},
		{"Shift_JIS", []byte("# \x83\x8d\x83{\x83b\x83g\n" + rules), ""},
		{"ISO-2022-JP", []byte("# \x1b$B%m%\\%C%H\x1b(B\n" + rules), ""},
		{"a stray NUL", []byte(rules + "Disallow: /x\x00\n"), ""},
		{"NUL padding", append([]byte(rules), make([]byte, 4000)...), ""},
		{"form feeds and a DOS end", []byte(rules + "\f\n\x1a"), ""},
		{"starts like a BMP signature", []byte("BMW\n" + rules), ""},
		{"starts like an MP3 signature", []byte("ID3 tags are not here\n" + rules), ""},
		{"empty", nil, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cs, order := inReadAll(t, scan.NewReader("www.example.com", bytes.NewReader(tt.data)))
			if tt.kind == "" {
				if len(cs) != 1 || cs[0].URL != "https://www.example.com/robots.txt" {
					t.Fatalf("got %v, want one capture", order)
				}
				return
			}
			if len(cs) != 0 || !slices.Equal(order, []string{"error@0"}) {
				t.Fatalf("got %v, want [error@0]", order)
			}
			_, err := scan.NewReader("www.example.com", bytes.NewReader(tt.data)).Next()
			if !errors.Is(err, scan.ErrBinary) || !strings.HasSuffix(err.Error(), ": "+tt.kind) {
				t.Errorf("error %v, want ErrBinary: %s", err, tt.kind)
			}
		})
	}
}

// utf16Text codes s in UTF-16, little- or big-endian, with or without a
// byte order mark.
func utf16Text(s string, little, bom bool) []byte {
	if bom {
		s = "\ufeff" + s
	}
	var out []byte
	for _, u := range utf16.Encode([]rune(s)) {
		if little {
			out = append(out, byte(u), byte(u>>8))
		} else {
			out = append(out, byte(u>>8), byte(u))
		}
	}
	return out
}

// utf32LE codes s in UTF-32LE.
func utf32LE(s string) []byte {
	var out []byte
	for _, r := range s {
		out = append(out, byte(r), byte(r>>8), byte(r>>16), byte(r>>24))
	}
	return out
}
