package scan

import (
	"bufio"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
)

// input is one input of a run: a file, standard input or a URL.
type input struct {
	name string // the input string: what is read, reported and listed
	key  string // what the Shard hashes
	kind int
	size int64 // in bytes, -1 when unknown
}

const (
	inputFile = iota
	inputStdin
	inputURL
)

// expand turns the Job's inputs into inputs, in order and each once:
// directories are walked, lists read. An entry of a directory that
// cannot be read is reported and counted as a failed input.
func (r *runner) expand() ([]input, error) {
	var out []input
	seen := make(map[string]bool)
	add := func(in input) {
		if !seen[in.name] {
			seen[in.name] = true
			out = append(out, in)
		}
	}
	var outInfo os.FileInfo
	if r.j.OutDir != "" {
		outInfo, _ = os.Stat(r.j.OutDir)
	}
	one := func(arg, key string) {
		switch {
		case arg == "-":
			add(input{name: "-", key: key, kind: inputStdin, size: -1})
			return
		case isURL(arg):
			add(input{name: arg, key: key, kind: inputURL, size: -1})
			return
		}
		st, err := os.Stat(arg)
		if err != nil || !st.IsDir() {
			size := int64(-1)
			if err == nil {
				size = st.Size()
			}
			// A missing file is reported when it is read.
			add(input{name: arg, key: key, kind: inputFile, size: size})
			return
		}
		r.walk(arg, outInfo, add)
	}
	for _, arg := range r.j.Inputs {
		if list, ok := strings.CutPrefix(arg, "@"); ok {
			lines, err := r.readList(list)
			if err != nil {
				return nil, err
			}
			for _, l := range lines {
				one(r.j.Base+l, l)
			}
			continue
		}
		one(arg, arg)
	}
	return out, nil
}

// walk adds every regular file under the directory dir, in lexical order
// (fs.WalkDir, https://pkg.go.dev/io/fs#WalkDir, which "does not follow
// symbolic links"), the OutDir left out. dir may itself be a symbolic
// link; the links under it are not followed. A link whose target is inside the
// tree is left out without a word: its target is read under its own path,
// once, and a link to a directory above it makes no loop. A link out of
// the tree, one that leads nowhere and one in a loop are each reported,
// naming the link, and counted as a failed input, as is an entry that
// cannot be read.
func (r *runner) walk(dir string, outInfo os.FileInfo, add func(input)) {
	// The tree's own path, every link in it resolved, to tell where a
	// link under it leads.
	root, rootErr := filepath.EvalSymlinks(dir)
	if rootErr == nil {
		root, rootErr = filepath.Abs(root)
	}
	bad := func(p string, err error) {
		r.others++
		r.failed.Add(1)
		r.inputErr(p, err)
	}
	fs.WalkDir(os.DirFS(dir), ".", func(rel string, d fs.DirEntry, err error) error {
		p := dir
		if rel != "." {
			p = filepath.Join(dir, filepath.FromSlash(rel))
		}
		if err != nil {
			bad(p, err)
			return nil
		}
		switch {
		case d.IsDir():
			if outInfo != nil && rel != "." {
				if info, err := d.Info(); err == nil && os.SameFile(info, outInfo) {
					return filepath.SkipDir
				}
			}
			return nil
		case d.Type()&fs.ModeSymlink != 0:
			target, err := filepath.EvalSymlinks(p)
			if err == nil {
				target, err = filepath.Abs(target)
			}
			switch {
			case err != nil:
				bad(p, fmt.Errorf("%w: %v", ErrLinkBroken, pathless(err)))
			case rootErr != nil || !inTree(root, target):
				bad(p, ErrLinkOut)
			}
			return nil
		case !d.Type().IsRegular():
			return nil // a device, a pipe or a socket: no file to read
		}
		info, err := d.Info()
		if err != nil {
			bad(p, err)
			return nil
		}
		add(input{name: p, key: rel, kind: inputFile, size: info.Size()})
		return nil
	})
}

// ErrLinkOut is the error of a symbolic link, under a directory input,
// whose target is outside that directory: it is not followed.
var ErrLinkOut = errors.New("a symbolic link out of the directory: not followed")

// ErrLinkBroken is the error of a symbolic link, under a directory input,
// that leads nowhere or into a loop of links.
var ErrLinkBroken = errors.New("a symbolic link that cannot be followed")

// inTree reports whether path is root or under it; both are absolute and
// clean.
func inTree(root, path string) bool {
	rel, err := filepath.Rel(root, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// maxListLine bounds a line of an @LIST.
const maxListLine = 64 << 10

// readList reads the lines of an @LIST: a file or URL, gzip-compressed
// (RFC 1952, told by its first two bytes) or plain; blank lines and lines
// that start with "#" are left out.
func (r *runner) readList(name string) ([]string, error) {
	if name == "" {
		return nil, errors.New("@ needs a file name: @LIST")
	}
	var rc io.ReadCloser
	if isURL(name) {
		src, err := r.openURL(name)
		if err != nil {
			return nil, fmt.Errorf("@%s: %v", name, err)
		}
		rc = src
	} else {
		f, err := os.Open(name)
		if err != nil {
			return nil, fmt.Errorf("@%s: %v", name, pathless(err))
		}
		rc = f
	}
	defer rc.Close()
	br := bufio.NewReader(rc)
	var rd io.Reader = br
	if head, _ := br.Peek(2); len(head) == 2 && head[0] == 0x1f && head[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, fmt.Errorf("@%s: %v", name, err)
		}
		rd = zr
	}
	sc := bufio.NewScanner(rd)
	sc.Buffer(make([]byte, 4096), maxListLine)
	var lines []string
	for sc.Scan() {
		l := strings.TrimSpace(strings.TrimPrefix(sc.Text(), "\ufeff"))
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		lines = append(lines, l)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("@%s: line %d: %v", name, len(lines)+1, err)
	}
	return lines, nil
}

// pathless is err without the *fs.PathError around it, for a message
// that names the path already.
func pathless(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// source is an input's byte stream: it adds the bytes read to the run's
// count.
type source struct {
	r     io.Reader
	close func() error
	total *atomic.Int64
}

func (s *source) Read(p []byte) (int, error) {
	n, err := s.r.Read(p)
	s.total.Add(int64(n))
	return n, err
}

func (s *source) Close() error {
	if s.close == nil {
		return nil
	}
	return s.close()
}

// open opens an input.
func (r *runner) open(in input) (*source, error) {
	switch in.kind {
	case inputStdin:
		stdin := r.j.Stdin
		if stdin == nil {
			stdin = eofReader{}
		}
		return &source{r: stdin, total: &r.bytes}, nil
	case inputURL:
		return r.openURL(in.name)
	}
	if i := strings.Index(in.name, "://"); i > 0 && !strings.ContainsAny(in.name[:i], `/\.`) {
		if _, err := os.Stat(in.name); err != nil {
			return nil, errors.New("robots scan reads files and http or https URLs only")
		}
	}
	f, err := os.Open(in.name)
	if err != nil {
		return nil, err
	}
	if st, err := f.Stat(); err == nil && st.IsDir() {
		f.Close()
		return nil, errors.New("a directory")
	}
	return &source{r: f, close: f.Close, total: &r.bytes}, nil
}

// eofReader is an empty standard input.
type eofReader struct{}

func (eofReader) Read([]byte) (int, error) { return 0, io.EOF }
