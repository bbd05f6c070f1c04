// Package oracle is loom's differential behaviour oracle; it has no code of its own, only tests.
package oracle
