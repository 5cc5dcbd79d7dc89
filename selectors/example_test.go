package selectors_test

import (
	"fmt"

	"github.com/kapi-dev/kapi/selectors"
)

func ExampleParseLabelSelector() {
	sel, err := selectors.ParseLabelSelector("tier in (web, api), !canary, env!=prod")
	if err != nil {
		panic(err)
	}
	fmt.Println(sel.String())
	fmt.Println(sel.Matches(map[string]string{"tier": "web"}))
	fmt.Println(sel.Matches(map[string]string{"tier": "web", "env": "prod"}))
	fmt.Println(sel.Matches(map[string]string{"tier": "db"}))
	value, ok := sel.RequiresExactMatch("tier")
	fmt.Printf("%q %v\n", value, ok)

	_, err = selectors.ParseLabelSelector("tier in (")
	fmt.Println(err)
	// Output:
	// !canary,env!=prod,tier in (api,web)
	// true
	// false
	// false
	// "" false
	// unable to parse requirement: found '', expected: ',', ')' or identifier
}

func ExampleParseFieldSelector() {
	sel, err := selectors.ParseFieldSelector(`status.phase!=Failed,metadata.name=a\,b`)
	if err != nil {
		panic(err)
	}
	fmt.Println(sel.String())
	fmt.Println(sel.RequiresExactMatch("metadata.name"))
	fmt.Println(sel.Matches(selectors.FieldSet{"metadata.name": "a,b"})) // no status.phase: ""
	fmt.Println(sel.Validate(func(f string) bool { return f == "metadata.name" }))
	// Output:
	// metadata.name=a\,b,status.phase!=Failed
	// a,b true
	// true
	// field label not supported: status.phase
}
