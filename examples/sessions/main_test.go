package main

import (
	"context"
	"strings"
	"testing"

	"github.com/mms-sdk/mms-go/internal/exampletest"
	"github.com/mms-sdk/mms-go/mmstest/fakeclient"
)

// writes records each Write separately, to see text printed as it grows.
type writes []string

func (w *writes) Write(p []byte) (int, error) {
	*w = append(*w, string(p))
	return len(p), nil
}

// TestRun runs the example against mmstest's session simulator, so it
// cannot rot.
func TestRun(t *testing.T) {
	client, _ := fakeclient.New(t)
	var w writes
	if err := run(context.Background(), client, "mms-large-1", &w); err != nil {
		t.Fatalf("%v\n%s", err, strings.Join(w, ""))
	}
	out := strings.Join(w, "")
	part1, part2, ok := strings.Cut(out, "== part 2")
	if !ok {
		t.Fatalf("no part 2:\n%s", out)
	}
	for _, tt := range []struct {
		part string
		want []string
	}{
		{part1, []string{
			"agent calls get_weather\n", "agent calls get_air_quality\n",
			"agent calls bash (permission ask)\n", "agent calls write (permission ask)\n",
			`ran get_weather: "sunny, 18 °C" (error: false)`, `ran get_air_quality: "AQI 42 (good)" (error: false)`,
			"allowed bash\n", "bash finished (error: false)\n",
			"denied write: this program allows only bash\n", "write finished (error: true)\n",
			// The agent's answer to the results (in the order they came).
			"denied: this program allows only bash\n", "sunny, 18 °C\n", "AQI 42 (good)\n",
			"idle: end_turn\n",
		}},
		{part2, []string{
			"  agent: You said: Is it warm in Rome? Use get_weather.\n",
			`answered get_weather: "sunny, 18 °C" (error: false)`,
			"idle: requires_action (1 calls wait)\n",
			"  agent: You said: sunny, 18 °C\n",
			"idle: end_turn\n",
			"archived the environment and the agent\n",
		}},
	} {
		for _, want := range tt.want {
			if !strings.Contains(tt.part, want) {
				t.Errorf("output lacks %q:\n%s", want, tt.part)
			}
		}
	}
	if n := strings.Count(part1, "idle: end_turn"); n != 1 {
		t.Errorf("part 1 ended %d turns:\n%s", n, part1)
	}

	// The reply to the tool result was streamed after the loop answered
	// the call, so its previews were on the stream: the text came in more
	// than one piece, through the accumulator.
	pieces := 0
	for i, s := range w {
		if !strings.HasPrefix(s, "  agent: ") {
			continue
		}
		end := i + 1
		for end < len(w) && w[end] != "\n" {
			end++
		}
		if strings.Join(w[i:end], "") == "  agent: You said: sunny, 18 °C" {
			pieces = end - i
		}
	}
	if pieces < 3 {
		t.Errorf("the last message was printed in %d pieces, want it to grow (at least 3): %q", pieces, w)
	}
}

// TestMainWithoutCredentials runs main as `go run` does on a machine with
// no credentials: against the built-in fake, which it says once on stderr.
func TestMainWithoutCredentials(t *testing.T) {
	out, _ := exampletest.RunMain(t, main)
	for _, want := range []string{"idle: end_turn", "archived the environment and the agent"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}
