package demo_test

import (
	"fmt"
	"os"

	"github.com/loomgo/loom/cmd/loom/internal/demo"
)

// Picking experiments by name or prefix, as loom demo -only does.
func ExampleSelect() {
	exps, err := demo.Select("scope")
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, e := range exps {
		fmt.Printf("%s: %s (Java: %s)\n", e.Name, e.Title, e.Java)
	}
	// Output:
	// scope-fail-fast: structured scope: one fork fails at 100 ms, another would take 2 s (Java: fails in 143 ms, slow fork interrupted)
	// scope-first-success: first-success scope over forks of 300, 50 and 150 ms (Java: "cache" wins)
}

// Running one experiment and printing its row, fitted to an 80-column terminal.
func ExampleRun() {
	exps, _ := demo.Select("threadlocal")
	res := demo.Run(&demo.Config{}, exps)
	demo.WriteTable(os.Stdout, res, demo.Width)
	// Output:
	// threadlocal
	//   experiment           ThreadLocal set in two virtual threads and in main
	//   Java (published)     each sees only its own value; main sees none (null) first
	//   loom (measured now)  main first "", then "main"; threads saw "virtual-1" and
	//                        "virtual-2"
	//   verdict              same shape: each thread reads back only its own value;
	//                        main reads the zero value (Java's null) first
	//
	// The experiment has the same shape as in Java.
}

// The same row in the README's Markdown table (loom demo --markdown).
func ExampleWriteMarkdown() {
	exps, _ := demo.Select("threadlocal")
	demo.WriteMarkdown(os.Stdout, demo.Run(&demo.Config{}, exps))
	// Output:
	// | experiment | Java (published) | loom (measured now) | verdict |
	// | --- | --- | --- | --- |
	// | ThreadLocal set in two virtual threads and in main | each sees only its own value; main sees none (null) first | main first "", then "main"; threads saw "virtual-1" and "virtual-2" | same shape: each thread reads back only its own value; main reads the zero value (Java's null) first |
	//
	// The experiment has the same shape as in Java.
}
