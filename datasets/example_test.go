package datasets_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/kingoal/kingoal/datasets"
	"github.com/kingoal/kingoal/env"
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

// A ThrowRecord is written as the ThrowRow it stands for, and reads back as one.
func ExampleThrowRecord() {
	dir, _ := os.MkdirTemp("", "kingoal")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "throws.parquet")
	rec := datasets.ThrowRecord{MatchID: 7, Index: 0, Kind: datasets.ChanceThrow, Period: env.FirstHalf, ThrowsLeft: 45,
		BallBefore: 3, BallAfter: 4, HomeDice: 3, AwayDice: 2, Outcome: env.HomeWins,
		HomeValues: datasets.DiceValues{Values: [env.MaxDice]uint8{6, 1, 4}, Count: 3}}
	if err := datasets.WriteParquet(path, datasets.ThrowsSchema, []datasets.ThrowRecord{rec}); err != nil {
		panic(err)
	}
	rows, err := datasets.ReadParquet[datasets.ThrowRow](path, datasets.ThrowsSchema)
	r := rows[0]
	fmt.Println(r.Kind, r.Period, r.BallBefore, "→", r.BallAfter, r.Outcome, r.HomeValues, err)
	// Output:
	// throw first half 3 → 4 home wins [6 1 4] <nil>
}
