package datasets_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/kingoal/kingoal/datasets"
)

func ExampleWriteParquet() {
	dir, _ := os.MkdirTemp("", "kingoal")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "matrix.parquet")
	rows := []datasets.MatrixRow{{HomeIndex: 29, AwayIndex: 60, Home: "1-2-3-3-1", Away: "2-2-2-2-2", HomeWin: 0.61, Draw: 0.04, AwayWin: 0.35}}
	if err := datasets.WriteParquet(path, datasets.MatrixSchema, rows); err != nil {
		panic(err)
	}
	back, err := datasets.ReadParquet[datasets.MatrixRow](path, datasets.MatrixSchema)
	fmt.Println(len(back), back[0].Home, back[0].HomeWin, err)
	_, err = datasets.ReadParquet[datasets.PolicyRow](path, datasets.PolicySchema)
	fmt.Println(err != nil)
	// Output:
	// 1 1-2-3-3-1 0.61 <nil>
	// true
}
