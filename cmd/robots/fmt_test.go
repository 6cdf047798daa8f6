package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFmtSort: robots fmt keeps the rules of a group in the order they
// are written, and -sort, wherever it stands among the arguments, sorts
// them longest first with Allow first on a tie; -w writes what the same
// command prints, and -l lists a file by the layout its flags ask for.
func TestFmtSort(t *testing.T) {
	const (
		src    = "user-agent: *\nDisallow: /a\nAllow: /a/b\nDisallow: /\n"
		kept   = "User-agent: *\nDisallow: /a\nAllow: /a/b\nDisallow: /\n"
		sorted = "User-agent: *\nAllow: /a/b\nDisallow: /a\nDisallow: /\n"
	)
	dir := t.TempDir()
	path := filepath.Join(dir, "robots.txt")
	write := func(s string) {
		t.Helper()
		if err := os.WriteFile(path, []byte(s), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	call := func(args ...string) (string, string, int) {
		var out, errb bytes.Buffer
		code := run(context.Background(), args, strings.NewReader(src), &out, &errb)
		return out.String(), errb.String(), code
	}
	write(src)
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"fmt", path}, kept},
		{[]string{"fmt", "-"}, kept},
		{[]string{"fmt", "-sort", path}, sorted},
		{[]string{"fmt", path, "-sort"}, sorted},
		{[]string{"fmt", "-sort=true", "-"}, sorted},
		{[]string{"fmt", "-", "--sort"}, sorted},
		{[]string{"fmt", "-sort=false", path}, kept},
	} {
		out, errs, code := call(tt.args...)
		if code != exitOK || errs != "" || out != tt.want {
			t.Errorf("robots %s: exit %d, stderr %q, stdout:\n%s\nwant:\n%s", strings.Join(tt.args, " "), code, errs, out, tt.want)
		}
	}

	// -w writes the printed layout. fmt -l lists the file written by
	// fmt -w only with -sort, and the file written by fmt -sort -w under
	// neither: plain fmt leaves sorted rules as they are.
	for _, tt := range []struct {
		flags  []string
		want   string
		listed [2]bool // listed by fmt -l, by fmt -l -sort
	}{
		{nil, kept, [2]bool{false, true}},
		{[]string{"-sort"}, sorted, [2]bool{false, false}},
	} {
		write(src)
		if out, errs, code := call(append(append([]string{"fmt", path}, tt.flags...), "-w")...); code != exitOK || out != "" || errs != "" {
			t.Errorf("robots fmt %v -w: exit %d, %q %q", tt.flags, code, out, errs)
		}
		got, _ := os.ReadFile(path)
		if string(got) != tt.want {
			t.Errorf("robots fmt %v -w wrote:\n%s\nwant:\n%s", tt.flags, got, tt.want)
		}
		for k, flags := range [][]string{{"-l"}, {"-l", "-sort"}} {
			out, errs, code := call(append(append([]string{"fmt"}, flags...), path)...)
			wantOut, wantCode := "", exitOK
			if tt.listed[k] {
				wantOut, wantCode = path+"\n", exitFinding
			}
			if code != wantCode || out != wantOut || errs != "" {
				t.Errorf("robots fmt %v on the output of fmt %v -w: exit %d, stdout %q, stderr %q; want exit %d, stdout %q", flags, tt.flags, code, out, errs, wantCode, wantOut)
			}
		}
	}
}
