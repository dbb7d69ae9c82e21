package linetemplate

import "testing"

func TestTemplate(t *testing.T) {
	cases := map[string]string{
		"2026-11-20T03:00:01.960Z GET /healthz 200 in 12ms":            "<ts> GET /healthz <n> in <n>ms",
		"2025-06-24 14:36:25 status installed libc-bin:amd64 2.36-9":   "<ts> status installed libc-bin:<id> <n>-<n>",
		"Start-Date: 2025-06-24  14:36:25":                             "Start-Date: <ts>",
		"req 550e8400-e29b-41d4-a716-446655440000 from 10.0.0.12:5432": "req <uuid> from <ip>",
		"ptr=0xdeadBEEF sha=3f9a2c1b7e took 3.5s":                      "ptr=<hex> sha=<hex> took <n>s",
		"Nov 22 01:23:47 host sshd[1234]: ok":                          "Nov <n> <time> host sshd[<n>]: ok",
		"pod orders-7f9c6d5b8-tq7rl v1 utf8 x86":                       "pod orders-<hex>-<id> v1 utf8 x86",
		"version 1.2.3 and 42":                                         "version <n> and <n>",
		"":                                                             "",
		"no variables here":                                            "no variables here",
	}
	for in, want := range cases {
		if got := string(Append(nil, []byte(in))); got != want {
			t.Errorf("template(%q)\n got %q\nwant %q", in, got, want)
		}
	}
}

func TestFirstStamp(t *testing.T) {
	for line, want := range map[string]string{
		"2026-11-20T03:00:01.960Z GET":    "2026-11-20T03:00:01.960Z",
		"Nov 22 01:23:47 host":            "01:23:47",
		`{"time":"2026-11-20T03:00:04Z"}`: "2026-11-20T03:00:04Z",
		"no time 12 here":                 "",
		"x12:30:00":                       "30:00", // as Append masks it
	} {
		if got := string(FirstStamp([]byte(line))); got != want {
			t.Errorf("FirstStamp(%q) = %q, want %q", line, got, want)
		}
	}
}
