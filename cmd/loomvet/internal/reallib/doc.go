// Package reallib holds the tests that run loomvet's analyzers over the real loom packages (the
// module this one replaces with ../..), where the other tests use the stubs in ../testdata.
package reallib
