// Package jdk finds a Java Development Kit on this machine, compiles Java sources with it once,
// and runs them: the one place where loom's tools meet a real JVM. `loom demo --java` and
// `loom bench --java` use it to measure the Java column on the same machine as loom, and the
// differential oracle (internal/oracle) uses it to run every behaviour scenario on the JDK.
//
// Where a JDK is looked for, in order:
//
//  1. $JAVA_HOME, if it holds bin/java and bin/javac;
//  2. each directory under /usr/lib/jvm (the newest suitable one wins);
//  3. the java found on $PATH (its JDK is the directory above its bin/, symlinks resolved).
//
// A JDK qualifies only if its version is at least [MinVersion] (21: virtual threads are final
// there) and it has javac. The version is read from the JDK's release file, or, lacking one, from
// `java -version`. An older java — such as a distribution's default Java 17 on $PATH — is passed
// over, and [Find]'s error says what was found and why each was rejected.
package jdk

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// MinVersion is the oldest Java feature release accepted: 21, where virtual threads are final.
const MinVersion = 21

// JDK is a Java Development Kit found on this machine.
type JDK struct {
	Home    string // the JDK's root directory (JAVA_HOME)
	Version string // the full version, e.g. "25.0.3"
	Major   int    // the feature release, e.g. 25
	From    string // where it was found: "JAVA_HOME", "/usr/lib/jvm" or "PATH"
}

// Java returns the path of the JDK's java launcher.
func (j *JDK) Java() string { return filepath.Join(j.Home, "bin", "java") }

// Javac returns the path of the JDK's javac compiler.
func (j *JDK) Javac() string { return filepath.Join(j.Home, "bin", "javac") }

// String describes the JDK: "JDK 25.0.3 (/usr/lib/jvm/temurin-25-jdk-amd64)".
func (j *JDK) String() string { return fmt.Sprintf("JDK %s (%s)", j.Version, j.Home) }

// Find returns the newest suitable JDK, looking where the package comment says. Its error, when
// none qualifies, lists what was considered and why each was passed over.
func Find() (*JDK, error) {
	return find(os.Getenv, "/usr/lib/jvm", exec.LookPath)
}

// find is Find with its environment passed in, for tests.
func find(getenv func(string) string, jvmDir string, lookPath func(string) (string, error)) (*JDK, error) {
	var why []string
	consider := func(home, from string) *JDK {
		j, err := inspect(home)
		if err != nil {
			why = append(why, fmt.Sprintf("%s %s: %v", from, home, err))
			return nil
		}
		j.From = from
		return j
	}
	if home := getenv("JAVA_HOME"); home != "" {
		if j := consider(home, "JAVA_HOME"); j != nil {
			return j, nil
		}
	}
	if entries, err := os.ReadDir(jvmDir); err == nil {
		var found []*JDK
		seen := map[string]bool{}
		for _, e := range entries {
			home := filepath.Join(jvmDir, e.Name())
			real, err := filepath.EvalSymlinks(home)
			if err != nil || seen[real] {
				continue // a dangling link, or another name for a JDK already seen
			}
			seen[real] = true
			if fi, err := os.Stat(real); err != nil || !fi.IsDir() {
				continue
			}
			if j := consider(home, jvmDir); j != nil {
				found = append(found, j)
			}
		}
		if len(found) > 0 {
			slices.SortStableFunc(found, func(a, b *JDK) int { return compareVersions(b.Version, a.Version) })
			return found[0], nil
		}
	}
	if java, err := lookPath("java"); err == nil {
		if real, err := filepath.EvalSymlinks(java); err == nil {
			if j := consider(filepath.Dir(filepath.Dir(real)), "PATH"); j != nil {
				return j, nil
			}
		}
	} else {
		why = append(why, "no java on PATH")
	}
	if len(why) == 0 {
		why = append(why, "nothing found")
	}
	return nil, fmt.Errorf("no JDK %d or newer: %s", MinVersion, strings.Join(why, "; "))
}

// inspect checks that home is a JDK of at least MinVersion with javac, and returns it.
func inspect(home string) (*JDK, error) {
	java := filepath.Join(home, "bin", "java")
	if _, err := os.Stat(java); err != nil {
		return nil, errors.New("no bin/java")
	}
	version, err := releaseVersion(filepath.Join(home, "release"))
	if err != nil {
		version, err = launcherVersion(java)
		if err != nil {
			return nil, err
		}
	}
	major := majorOf(version)
	if major < MinVersion {
		return nil, fmt.Errorf("Java %s is older than %d", version, MinVersion)
	}
	if _, err := os.Stat(filepath.Join(home, "bin", "javac")); err != nil {
		return nil, fmt.Errorf("Java %s has no bin/javac (a JRE, not a JDK)", version)
	}
	return &JDK{Home: home, Version: version, Major: major}, nil
}

// releaseVersion reads JAVA_VERSION="25.0.3" from a JDK's release file.
func releaseVersion(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "JAVA_VERSION="); ok {
			return strings.Trim(v, `"`), nil
		}
	}
	return "", errors.New("no JAVA_VERSION in " + path)
}

var versionRE = regexp.MustCompile(`version "([^"]+)"`)

// launcherVersion runs `java -version` and parses `openjdk version "17.0.15" ...`.
func launcherVersion(java string) (string, error) {
	out, err := exec.Command(java, "-version").CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("java -version: %v", err)
	}
	m := versionRE.FindSubmatch(out)
	if m == nil {
		return "", fmt.Errorf("java -version printed no version: %q", firstLine(out))
	}
	return string(m[1]), nil
}

func firstLine(b []byte) string {
	line, _, _ := bytes.Cut(b, []byte("\n"))
	return string(line)
}

// majorOf returns the feature release of a version string: "25.0.3" -> 25, "21" -> 21,
// "1.8.0_392" -> 8, "26-ea" -> 26.
func majorOf(v string) int {
	v = strings.TrimPrefix(v, "1.")
	end := strings.IndexFunc(v, func(r rune) bool { return r < '0' || r > '9' })
	if end >= 0 {
		v = v[:end]
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return 0
	}
	return n
}

// compareVersions orders dotted versions numerically: "25.0.3" > "21.0.9" > "21".
func compareVersions(a, b string) int {
	pa, pb := versionParts(a), versionParts(b)
	for i := range max(len(pa), len(pb)) {
		x, y := 0, 0
		if i < len(pa) {
			x = pa[i]
		}
		if i < len(pb) {
			y = pb[i]
		}
		if x != y {
			return x - y
		}
	}
	return 0
}

func versionParts(v string) []int {
	var out []int
	for _, f := range strings.FieldsFunc(v, func(r rune) bool { return r == '.' || r == '_' || r == '+' || r == '-' }) {
		n, err := strconv.Atoi(f)
		if err != nil {
			break
		}
		out = append(out, n)
	}
	if len(out) > 0 && out[0] == 1 && len(out) > 1 { // 1.8.0 is 8
		out = out[1:]
	}
	return out
}
