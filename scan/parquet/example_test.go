package parquet_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	pq "github.com/parquet-go/parquet-go"

	"github.com/robotskit/robots/scan"
	"github.com/robotskit/robots/scan/parquet"
)

// scan.Run writes Parquet parts when its Job names the format and this
// package's writer; here one part, for standard input, read back with
// parquet-go.
func Example() {
	dir, err := os.MkdirTemp("", "scan-parts")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	in := `{"url": "https://a.example/robots.txt", "status": 200, "body": "User-agent: GPTBot\nDisallow: /\n"}
{"url": "https://b.example/robots.txt", "status": 404}
`
	robots, _ := scan.SelectRobots("GPTBot")
	job := &scan.Job{
		Inputs:    []string{"-"},
		Stdin:     strings.NewReader(in),
		Options:   &scan.Options{Robots: robots},
		Format:    parquet.Format,
		NewWriter: parquet.NewRowWriter,
		OutDir:    dir,
	}
	if _, err := scan.Run(context.Background(), job); err != nil {
		panic(err)
	}
	part := scan.PartName("-", parquet.Format)
	rows, err := pq.ReadFile[scan.Row](filepath.Join(dir, part))
	if err != nil {
		panic(err)
	}
	fmt.Println(part)
	for _, r := range rows {
		fmt.Println(r.Host, r.Status, r.Robots[0].Robot, r.Robots[0].State)
	}
	// Output:
	// part-3973e022e93220f9.parquet
	// a.example 200 GPTBot blocked
	// b.example 404 GPTBot open
}
