package thread_test

import "runtime"

var runtimeGoexit = runtime.Goexit
