package envtest_test

import (
	"fmt"

	"github.com/kingoal/kingoal/env"
	"github.com/kingoal/kingoal/env/envtest"
)

func ExampleCheck() {
	newEnv := func() envtest.Env {
		e, err := env.New(env.Config{Rules: env.Rules{Knockout: true}})
		if err != nil {
			panic(err)
		}
		return e
	}
	fmt.Println(envtest.Check(newEnv, envtest.Options{}))
	// Output:
	// <nil>
}
