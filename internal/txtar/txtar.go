// Package txtar reads and writes the text archives that the project's
// golden tests keep in testdata: a comment, then files that each start
// with a line "-- NAME --" (the format of golang.org/x/tools/txtar).
package txtar

import (
	"bytes"
	"fmt"
	"strings"
)

// An Archive is a comment and a list of files.
type Archive struct {
	Comment []byte
	Files   []File
}

// A File is one file of an archive. Its data ends with a newline unless it
// is empty.
type File struct {
	Name string
	Data []byte
}

// Parse reads an archive. It never fails: text before the first marker
// line is the comment, and a final line without a newline gets one.
func Parse(data []byte) *Archive {
	a := &Archive{}
	cur := &a.Comment
	for len(data) > 0 {
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i+1], data[i+1:]
		} else {
			data = nil
		}
		if name, ok := markerName(line); ok {
			a.Files = append(a.Files, File{Name: name})
			cur = &a.Files[len(a.Files)-1].Data
			continue
		}
		*cur = append(*cur, line...)
	}
	a.Comment = withNewline(a.Comment)
	for i := range a.Files {
		a.Files[i].Data = withNewline(a.Files[i].Data)
	}
	return a
}

func withNewline(d []byte) []byte {
	if n := len(d); n > 0 && d[n-1] != '\n' {
		return append(d, '\n')
	}
	return d
}

// markerName returns NAME for a line "-- NAME --".
func markerName(line []byte) (string, bool) {
	s := strings.TrimSuffix(strings.TrimSuffix(string(line), "\n"), "\r")
	if !strings.HasPrefix(s, "-- ") || !strings.HasSuffix(s, " --") || len(s) < len("-- x --") {
		return "", false
	}
	name := strings.TrimSpace(s[3 : len(s)-3])
	return name, name != ""
}

// Format returns the archive as text.
func (a *Archive) Format() []byte {
	var b bytes.Buffer
	b.Write(a.Comment)
	for _, f := range a.Files {
		fmt.Fprintf(&b, "-- %s --\n", f.Name)
		b.Write(f.Data)
	}
	return b.Bytes()
}

// Get returns the data of the file called name.
func (a *Archive) Get(name string) ([]byte, bool) {
	for _, f := range a.Files {
		if f.Name == name {
			return f.Data, true
		}
	}
	return nil, false
}

// Set replaces the data of the file called name, appending the file when
// there is none.
func (a *Archive) Set(name string, data []byte) {
	for i := range a.Files {
		if a.Files[i].Name == name {
			a.Files[i].Data = data
			return
		}
	}
	a.Files = append(a.Files, File{Name: name, Data: data})
}

// Delete removes the file called name, if there is one.
func (a *Archive) Delete(name string) {
	for i := range a.Files {
		if a.Files[i].Name == name {
			a.Files = append(a.Files[:i], a.Files[i+1:]...)
			return
		}
	}
}
