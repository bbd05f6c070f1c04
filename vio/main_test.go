package vio_test

import (
	"fmt"
	"os"
	"strconv"
	"testing"
	"time"

	"go.uber.org/goleak"
)

// The test binary doubles as the child process of the process tests and of the scale test's
// clients: VIO_TEST_HELPER selects what it does instead of running tests.
func TestMain(m *testing.M) {
	switch os.Getenv("VIO_TEST_HELPER") {
	case "":
		goleak.VerifyTestMain(m)
	case "sleep":
		d, _ := time.ParseDuration(os.Getenv("VIO_TEST_ARG"))
		time.Sleep(d)
		os.Exit(0)
	case "echo":
		fmt.Print(os.Getenv("VIO_TEST_ARG"))
		fmt.Fprint(os.Stderr, "to stderr")
		code, _ := strconv.Atoi(os.Getenv("VIO_TEST_CODE"))
		os.Exit(code)
	case "clients":
		os.Exit(scaleClients())
	}
}
