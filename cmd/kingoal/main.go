package main

import (
	"os"

	"github.com/kingoal/kingoal/frontend/cli"
)

func main() { os.Exit(cli.Execute(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) }
