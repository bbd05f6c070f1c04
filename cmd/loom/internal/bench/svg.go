package bench

import (
	"fmt"
	"html"
	"io"
	"math"
	"strings"
	"time"

	"github.com/loomgo/loom/cmd/loom/internal/demo"
)

// Point is one measurement of the chart: how long tasks sleeps of Sleep took on a fixed pool
// of Pool platform threads and on a virtual thread each.
type Point struct {
	Tasks    int           // how many tasks ran
	Pool     int           // the fixed pool's platform threads
	Sleep    time.Duration // each task's sleep
	Fixed    time.Duration // how long the tasks took on the fixed pool
	Virtual  time.Duration // how long they took on a virtual thread each
	Expected time.Duration // ceil(tasks/pool) × sleep: what the fixed pool must take
}

// SweepOptions configure Sweep.
type SweepOptions struct {
	Tasks    []int         // default 200, 500, 1,000, 2,000, 5,000, 10,000
	Pool     int           // default 200
	Sleep    time.Duration // default 100 ms
	Progress io.Writer     // gets a line per point as it is measured; nil: none
}

// Sweep measures completion time against the number of tasks, fixed pool vs virtual threads.
func Sweep(o SweepOptions) ([]Point, error) {
	if len(o.Tasks) == 0 {
		o.Tasks = []int{200, 500, 1000, 2000, 5000, 10000}
	}
	if o.Pool <= 0 {
		o.Pool = 200
	}
	if o.Sleep <= 0 {
		o.Sleep = 100 * time.Millisecond
	}
	var pts []Point
	for _, n := range o.Tasks {
		f, err := demo.FixedPoolTime(n, o.Pool, o.Sleep)
		if err != nil {
			return nil, err
		}
		v, err := demo.VirtualTime(n, o.Sleep)
		if err != nil {
			return nil, err
		}
		p := Point{Tasks: n, Pool: o.Pool, Sleep: o.Sleep, Fixed: f, Virtual: v,
			Expected: time.Duration((n+o.Pool-1)/o.Pool) * o.Sleep}
		if o.Progress != nil {
			fmt.Fprintf(o.Progress, "  %6d tasks: fixed pool %v, virtual %v\n", n, f.Round(time.Millisecond), v.Round(time.Millisecond))
		}
		pts = append(pts, p)
	}
	return pts, nil
}

// WriteSVG draws the sweep: tasks on x, completion time on y, one line for the fixed pool and
// one for virtual threads, with the fixed pool's theoretical ceil(tasks/pool) × sleep dashed.
func WriteSVG(w io.Writer, pts []Point) error {
	if len(pts) == 0 {
		return fmt.Errorf("bench: no points to draw")
	}
	const (
		W, H                       = 820, 470
		left, right, top, bottom   = 80, 30, 60, 70
		plotW, plotH               = W - left - right, H - top - bottom
		fixedColor, virtColor, ink = "#d9480f", "#1971c2", "#343a40"
	)
	maxX, maxY := 0.0, 0.0
	for _, p := range pts {
		maxX = math.Max(maxX, float64(p.Tasks))
		maxY = math.Max(maxY, math.Max(msOf(p.Fixed), math.Max(msOf(p.Virtual), msOf(p.Expected))))
	}
	xStep := niceStep(maxX / 5)
	yStep := niceStep(maxY / 5)
	maxX = math.Ceil(maxX/xStep) * xStep
	maxY = math.Ceil(maxY/yStep) * yStep
	x := func(v float64) float64 { return left + v/maxX*plotW }
	y := func(v float64) float64 { return top + plotH - v/maxY*plotH }

	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="Helvetica, Arial, sans-serif">`+"\n", W, H, W, H)
	fmt.Fprintf(&b, `<rect width="%d" height="%d" fill="white"/>`+"\n", W, H)
	fmt.Fprintf(&b, `<text x="20" y="28" font-size="18" font-weight="bold" fill="%s">Fixed pool of %d platform threads vs a virtual thread per task</text>`+"\n",
		ink, pts[0].Pool)
	fmt.Fprintf(&b, `<text x="20" y="48" font-size="13" fill="#868e96">tasks that each sleep %s: completion time against the number of tasks (loom bench --svg)</text>`+"\n",
		html.EscapeString(msText(pts[0].Sleep)))
	// grid and axes
	for v := 0.0; v <= maxY+yStep/2; v += yStep {
		fmt.Fprintf(&b, `<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" stroke="#e9ecef"/>`+"\n", left, left+plotW, y(v), y(v))
		fmt.Fprintf(&b, `<text x="%d" y="%.1f" font-size="12" text-anchor="end" fill="%s">%s</text>`+"\n", left-8, y(v)+4, ink, num(v))
	}
	for v := 0.0; v <= maxX+xStep/2; v += xStep {
		fmt.Fprintf(&b, `<line x1="%.1f" x2="%.1f" y1="%d" y2="%d" stroke="#e9ecef"/>`+"\n", x(v), x(v), top, top+plotH)
		fmt.Fprintf(&b, `<text x="%.1f" y="%d" font-size="12" text-anchor="middle" fill="%s">%s</text>`+"\n", x(v), top+plotH+18, ink, num(v))
	}
	fmt.Fprintf(&b, `<line x1="%d" x2="%d" y1="%d" y2="%d" stroke="%s"/>`+"\n", left, left+plotW, top+plotH, top+plotH, ink)
	fmt.Fprintf(&b, `<line x1="%d" x2="%d" y1="%d" y2="%d" stroke="%s"/>`+"\n", left, left, top, top+plotH, ink)
	fmt.Fprintf(&b, `<text x="%d" y="%d" font-size="13" text-anchor="middle" fill="%s">tasks</text>`+"\n", left+plotW/2, H-24, ink)
	fmt.Fprintf(&b, `<text x="18" y="%d" font-size="13" text-anchor="middle" fill="%s" transform="rotate(-90 18 %d)">completion time (ms)</text>`+"\n", top+plotH/2, ink, top+plotH/2)

	line := func(get func(Point) time.Duration, color, dash string, dots bool) {
		var pb strings.Builder
		for i, p := range pts {
			if i > 0 {
				pb.WriteByte(' ')
			}
			fmt.Fprintf(&pb, "%.1f,%.1f", x(float64(p.Tasks)), y(msOf(get(p))))
		}
		fmt.Fprintf(&b, `<polyline points="%s" fill="none" stroke="%s" stroke-width="2.5"%s/>`+"\n", pb.String(), color, dash)
		if !dots {
			return
		}
		for _, p := range pts {
			fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="4" fill="%s"><title>%s tasks: %s</title></circle>`+"\n",
				x(float64(p.Tasks)), y(msOf(get(p))), color, num(float64(p.Tasks)), html.EscapeString(msText(get(p))))
		}
	}
	line(func(p Point) time.Duration { return p.Expected }, "#adb5bd", ` stroke-dasharray="6 5"`, false)
	line(func(p Point) time.Duration { return p.Fixed }, fixedColor, "", true)
	line(func(p Point) time.Duration { return p.Virtual }, virtColor, "", true)

	// legend and the last ratio
	last := pts[len(pts)-1]
	lx, ly := left+20, top+10
	fmt.Fprintf(&b, `<rect x="%d" y="%d" width="330" height="78" fill="white" stroke="#dee2e6"/>`+"\n", lx-10, ly-4)
	legend := []struct{ color, dash, text string }{
		{fixedColor, "", fmt.Sprintf("fixed pool of %d platform threads", last.Pool)},
		{virtColor, "", "virtual thread per task"},
		{"#adb5bd", ` stroke-dasharray="6 5"`, "ceil(tasks / pool) × sleep"},
	}
	for i, l := range legend {
		yy := ly + 12 + i*22
		fmt.Fprintf(&b, `<line x1="%d" x2="%d" y1="%d" y2="%d" stroke="%s" stroke-width="2.5"%s/>`+"\n", lx, lx+28, yy, yy, l.color, l.dash)
		fmt.Fprintf(&b, `<text x="%d" y="%d" font-size="13" fill="%s">%s</text>`+"\n", lx+36, yy+4, ink, html.EscapeString(l.text))
	}
	fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" font-size="13" text-anchor="end" fill="%s">%s tasks: %s vs %s (%.0f×)</text>`+"\n",
		x(float64(last.Tasks))-6, y(msOf(last.Virtual))-12, ink, num(float64(last.Tasks)),
		msText(last.Fixed), msText(last.Virtual), last.Fixed.Seconds()/last.Virtual.Seconds())
	b.WriteString("</svg>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

func msOf(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// msText formats d as "5,095 ms".
func msText(d time.Duration) string { return num(math.Round(msOf(d))) + " ms" }

// niceStep rounds a raw axis step up to 1, 2 or 5 times a power of ten.
func niceStep(raw float64) float64 {
	if raw <= 0 {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= raw {
			return m * p
		}
	}
	return 10 * p
}

func num(v float64) string {
	if v == math.Trunc(v) {
		s := fmt.Sprintf("%.0f", v)
		// thousands separators
		var out []byte
		for i := range len(s) {
			if i > 0 && (len(s)-i)%3 == 0 {
				out = append(out, ',')
			}
			out = append(out, s[i])
		}
		return string(out)
	}
	return fmt.Sprintf("%g", v)
}
