package main

import (
	"strings"
	"testing"

	"github.com/toolcompact/compact/plugins/pdk"
)

func TestRespond(t *testing.T) {
	cases := []struct {
		fault, payload, want string
	}{
		{"echo", "a\nb\n", "{\"abi\":1,\"content_type\":\"text/plain\",\"collections\":[]}\na\nb\n"},
		{"", "x", "{\"abi\":1,\"content_type\":\"text/plain\",\"collections\":[]}\nx"},
		{"drop", "a\nb\nc\n", "{\"abi\":1,\"content_type\":\"text/plain\",\"collections\":[{\"path\":\".\",\"count\":3}]}\na\nb\n"},
		{"drop", " [1, {\"a\":2}, 3] ", "{\"abi\":1,\"content_type\":\"text/plain\",\"collections\":[{\"path\":\".\",\"count\":3}]}\n[1,{\"a\":2}]"},
		{"bloat", "ab", "{\"abi\":1,\"content_type\":\"text/plain\",\"collections\":[]}\n" + strings.Repeat("ab", 10)},
		{"framing", "ab", "this output has no header line: ab"},
		{"spin:1", "ab", "{\"abi\":1,\"content_type\":\"text/plain\",\"collections\":[]}\nab"},
	}
	for _, c := range cases {
		out, err := respond(pdk.Header{ContentType: "text/plain", Config: map[string]string{"fault": c.fault}}, []byte(c.payload))
		if err != nil || string(out) != c.want {
			t.Errorf("%s %q: %q, %v\nwant %q", c.fault, c.payload, out, err, c.want)
		}
	}
	for fault, msg := range map[string]string{"fail": "failure requested", "nope": `unknown fault "nope"`, "slow:x": "bad slow duration", "spin:-1": "bad spin count"} {
		if _, err := respond(pdk.Header{Config: map[string]string{"fault": fault}}, nil); err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("%s: %v", fault, err)
		}
	}
	if _, err := respond(pdk.Header{Config: map[string]string{"fault": "drop"}}, []byte("[1,")); err == nil {
		t.Error("drop accepted broken JSON")
	}
	if hazard("echo") {
		t.Error("echo is not a hazard")
	}
}

func TestVersion(t *testing.T) {
	defer func(v string) { abiVersion = v }(abiVersion)
	for v, want := range map[string]int32{"1": 1, "2": 2, "x": -1} {
		abiVersion = v
		if got := version(); got != want {
			t.Errorf("abiVersion %q: %d", v, got)
		}
	}
}
