package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"reflect"
	"strconv"
	"strings"
	"syscall"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/toolcompact/compact/budget"
	"github.com/toolcompact/compact/budget/artifact"
	"github.com/toolcompact/compact/host"
	"github.com/toolcompact/compact/host/mcpproxy"
	"github.com/toolcompact/compact/host/server"
)

// sidecarConfig is everything the sidecar commands (serve, mcp) take from
// flags, also readable from a --config YAML file. Flags win over the
// file; unknown keys in the file are an error.
type sidecarConfig struct {
	Registry      string        `yaml:"registry"`
	Encoding      string        `yaml:"encoding"`
	Budget        int           `yaml:"budget"`
	Store         string        `yaml:"store"`
	StoreTTL      time.Duration `yaml:"store_ttl"`
	StoreMaxBytes byteSize      `yaml:"store_max_bytes"`
	Listen        string        `yaml:"listen"`
	Token         string        `yaml:"token"`
	MaxBody       byteSize      `yaml:"max_body"`
	MaxInFlight   int           `yaml:"max_in_flight"`
	AllowedHosts  []string      `yaml:"allowed_hosts"`
	Timeout       time.Duration `yaml:"timeout"`
	Grace         time.Duration `yaml:"shutdown_grace"`
	LogLevel      string        `yaml:"log_level"`
	LogFormat     string        `yaml:"log_format"`
	// compact mcp only.
	UpstreamURL string        `yaml:"upstream_url"`
	Command     []string      `yaml:"command"`
	MaxMessage  byteSize      `yaml:"max_message"`
	CallTimeout time.Duration `yaml:"call_timeout"`
	// StripOutputSchemas forwards tools without their output schemas.
	StripOutputSchemas bool `yaml:"strip_output_schemas"`
	// UpstreamProtocol is the MCP protocol version asked of the upstream
	// ("" is mcpproxy.DefaultUpstreamProtocol).
	UpstreamProtocol string `yaml:"upstream_protocol"`
}

func defaultSidecarConfig() sidecarConfig {
	return sidecarConfig{
		MaxBody: server.DefaultMaxBody,
		// A sidecar left running never fills the disk.
		StoreTTL:      artifact.DefaultTTL,
		StoreMaxBytes: artifact.DefaultMaxBytes,
		Timeout:       server.DefaultTimeout,
		Grace:         10 * time.Second,
		Encoding:      budget.DefaultEncoding,
		LogLevel:      "info",
		LogFormat:     "text",
	}
}

// loadSidecarConfig reads path strictly into c. Errors name the file, the
// line and the YAML key with what it wants ("line 3: budget: want a whole
// number"), never a Go type or field: unknown keys, values of the wrong
// kind and duplicate keys are refused one key at a time.
func loadSidecarConfig(path string, c *sidecarConfig) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("config: %w", err)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return fmt.Errorf("config %s: %w", path, err)
	}
	if len(doc.Content) == 0 {
		return nil // an empty file
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		return fmt.Errorf("config %s: line %d: want a mapping of settings (key: value)", path, root.Line)
	}
	fields := map[string]reflect.Value{}
	var keys []string
	cv := reflect.ValueOf(c).Elem()
	for i := range cv.NumField() {
		if k, _, _ := strings.Cut(cv.Type().Field(i).Tag.Get("yaml"), ","); k != "" {
			fields[k] = cv.Field(i)
			keys = append(keys, k)
		}
	}
	seen := map[string]bool{}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		f, ok := fields[k.Value]
		switch {
		case !ok:
			return fmt.Errorf("config %s: line %d: unknown key %q (known: %s)", path, k.Line, k.Value, strings.Join(keys, ", "))
		case seen[k.Value]:
			return fmt.Errorf("config %s: line %d: key %q given twice", path, k.Line, k.Value)
		}
		seen[k.Value] = true
		if err := v.Decode(f.Addr().Interface()); err != nil {
			return fmt.Errorf("config %s: line %d: %s: %s", path, v.Line, k.Value, wantOf(f.Type(), err))
		}
	}
	return nil
}

// wantOf says, in the contract's words, what a setting of type t takes;
// errors of the size type already say it.
func wantOf(t reflect.Type, err error) string {
	switch t {
	case reflect.TypeFor[time.Duration]():
		return "want a duration such as 30s, 5m or 72h"
	case reflect.TypeFor[byteSize]():
		msg := err.Error()
		if _, after, ok := strings.Cut(msg, ": "); ok && strings.HasPrefix(msg, "line ") {
			return after
		}
		return msg
	}
	switch t.Kind() {
	case reflect.Int, reflect.Int64:
		return "want a whole number"
	case reflect.Bool:
		return "want true or false"
	case reflect.String:
		return "want a string"
	case reflect.Slice:
		return "want a list of strings"
	}
	return "not a valid value"
}

// configFlag finds --config FILE (or -config, or =FILE) before "--".
func configFlag(args []string) (string, error) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			break
		}
		name, val, hasVal := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !strings.HasPrefix(a, "-") || name != "config" {
			continue
		}
		if hasVal {
			return val, nil
		}
		if i+1 >= len(args) {
			return "", errors.New("flag needs an argument: -config")
		}
		return args[i+1], nil
	}
	return "", nil
}

// sidecarFlags parses args into a config: defaults, then the --config
// file, then the flags given. It returns the arguments left after the
// flags.
func sidecarFlags(name string, e *env, mcp bool, args []string) (sidecarConfig, []string, int) {
	c := defaultSidecarConfig()
	path, err := configFlag(args)
	if err != nil {
		report(e.stderr, "compact "+name, err)
		return c, nil, ExitUsage
	}
	if path != "" {
		if err := loadSidecarConfig(path, &c); err != nil {
			report(e.stderr, "compact "+name, err)
			return c, nil, ExitUsage
		}
	}
	fs := flag.NewFlagSet("compact "+name, flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	fs.Usage = func() {
		if mcp {
			fmt.Fprintln(e.stderr, "usage: compact mcp [flags] -- COMMAND ARGS...\n       compact mcp [flags] --upstream-url URL\n\nAn MCP proxy: every tool result of the upstream server is fitted to its budget (docs/sidecar.md).\n\nflags:")
		} else {
			fmt.Fprintln(e.stderr, "usage: compact serve [flags]\n\nThe HTTP JSON API (schemas/openapi.yaml, docs/sidecar.md).\n\nflags:")
		}
		fs.PrintDefaults()
	}
	fs.String("config", path, "YAML `FILE` with any of these settings (flags win)")
	fs.StringVar(&c.Registry, "registry", c.Registry, "registry `FILE` layered over the built-in one (default $"+envRegistry+")")
	fs.StringVar(&c.Encoding, "encoding", c.Encoding, "tokenizer `NAME`: "+budget.EncodingO200k+" or "+budget.EncodingCL100k)
	fs.Var(budgetFlag{&c.Budget}, "budget", "default token budget `N` of one tool result (0: the registry entry's, else "+strconv.Itoa(host.DefaultBudget)+")")
	fs.StringVar(&c.Store, "store", c.Store, "artifact store `DIR` or URL (s3://, file://, mem://), or \"off\" (default $"+envStore+", else the user cache directory)")
	fs.DurationVar(&c.StoreTTL, "store-ttl", c.StoreTTL, "keep an artifact this `DURATION` after it was last stored (0: until the quota needs the room)")
	fs.Var(sizeFlag{(*int64)(&c.StoreMaxBytes)}, "store-max-bytes", "artifact store quota, a `SIZE` such as 10GiB; the oldest go first (0: none)")
	listenHelp := "HTTP listen `ADDR` (loopback unless a token is set)"
	if mcp {
		listenHelp = "serve MCP over streamable HTTP on `ADDR` instead of stdio (loopback unless a token is set)"
	}
	fs.StringVar(&c.Listen, "listen", c.Listen, listenHelp)
	fs.StringVar(&c.Token, "token", c.Token, "bearer `TOKEN` required on every request ($"+server.EnvToken+" when empty)")
	fs.Var(sizeFlag{(*int64)(&c.MaxBody)}, "max-body", "largest HTTP request body, a `SIZE` such as 64MiB")
	if !mcp {
		fs.IntVar(&c.MaxInFlight, "max-in-flight", c.MaxInFlight, "compactions running at once; others wait within their deadline (0: 2 × GOMAXPROCS)")
		fs.Var(hostsFlag{&c.AllowedHosts}, "allowed-host", "a `HOST` name the Host and Origin headers may name besides loopback and the listen address (repeatable)")
	}
	fs.DurationVar(&c.Timeout, "timeout", c.Timeout, "deadline of one HTTP request")
	fs.DurationVar(&c.Grace, "shutdown-grace", c.Grace, "how long shutdown waits for in-flight requests")
	fs.StringVar(&c.LogLevel, "log-level", c.LogLevel, "debug, info, warn or error")
	fs.StringVar(&c.LogFormat, "log-format", c.LogFormat, "text or json (logs go to standard error)")
	if mcp {
		fs.StringVar(&c.UpstreamURL, "upstream-url", c.UpstreamURL, "upstream MCP server `URL` (streamable HTTP), instead of a command after --")
		fs.Var(sizeFlag{(*int64)(&c.MaxMessage)}, "max-message", "largest message accepted from the upstream, a `SIZE` such as 512MiB (0: 256MiB)")
		fs.DurationVar(&c.CallTimeout, "call-timeout", c.CallTimeout, "deadline of one upstream request (0: 2m)")
		fs.BoolVar(&c.StripOutputSchemas, "strip-output-schemas", c.StripOutputSchemas, "forward tools without their outputSchema, for strict clients that reject a compacted or omitted structuredContent")
		fs.StringVar(&c.UpstreamProtocol, "upstream-protocol", c.UpstreamProtocol, "MCP protocol `VERSION` asked of the upstream: "+strings.Join(mcpproxy.UpstreamProtocols(), ", ")+" (default "+mcpproxy.DefaultUpstreamProtocol+")")
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return c, nil, ExitOK
		}
		return c, nil, ExitUsage
	}
	if c.Token == "" {
		c.Token = os.Getenv(server.EnvToken)
	}
	if c.Budget != 0 {
		// 0 (the default, and a config file without budget) is the
		// registry entry's budget; any value given is checked as --budget is.
		if err := checkBudget(c.Budget); err != nil {
			fmt.Fprintf(e.stderr, "compact %s: budget: %v\n", name, err)
			return c, nil, ExitUsage
		}
	}
	if err := mcpproxy.CheckUpstreamProtocol(c.UpstreamProtocol); err != nil {
		fmt.Fprintf(e.stderr, "compact %s: upstream-protocol: %v\n", name, err)
		return c, nil, ExitUsage
	}
	if c.MaxInFlight < 0 {
		fmt.Fprintf(e.stderr, "compact %s: max-in-flight must not be negative, got %d\n", name, c.MaxInFlight)
		return c, nil, ExitUsage
	}
	return c, fs.Args(), -1
}

// logger builds the structured logger of a sidecar command.
func (c *sidecarConfig) logger(w io.Writer) (*slog.Logger, error) {
	var lvl slog.Level
	if err := lvl.UnmarshalText([]byte(c.LogLevel)); err != nil {
		return nil, fmt.Errorf("log level %q: want debug, info, warn or error", c.LogLevel)
	}
	o := &slog.HandlerOptions{Level: lvl}
	switch c.LogFormat {
	case "text", "":
		return slog.New(slog.NewTextHandler(w, o)), nil
	case "json":
		return slog.New(slog.NewJSONHandler(w, o)), nil
	}
	return nil, fmt.Errorf("log format %q: want text or json", c.LogFormat)
}

// engine builds the engine: the registry (--registry, else
// $COMPACT_REGISTRY, else the built-in one), the token counter, the
// budget and the artifact store (a directory or blob URL, or "off";
// else $COMPACT_STORE; else the user cache directory) with its
// retention. Plugins are compiled and checked at start-up.
func (c *sidecarConfig) engine(ctx context.Context, log *slog.Logger) (*host.Engine, error) {
	f := engineFlags{registry: c.Registry, encoding: c.Encoding, budget: c.Budget, store: c.Store}
	counter, err := budget.NewCounter(f.encoding)
	if err != nil {
		return nil, withCode(ExitUsage, fmt.Errorf("--encoding: %w", err))
	}
	reg, err := f.loadRegistry()
	if err != nil {
		return nil, err
	}
	opts := []host.Option{host.WithRegistry(reg), host.WithCounter(counter), host.WithLogger(log)}
	target := c.Store
	if target == "" {
		target = os.Getenv(envStore)
	}
	if target != storeOff {
		st, err := artifact.Open(ctx, target, artifact.Options{TTL: c.StoreTTL, MaxBytes: int64(c.StoreMaxBytes)})
		if err != nil {
			return nil, withCode(ExitFailure, fmt.Errorf("--store: %w", err))
		}
		opts = append(opts, host.WithStore(st))
	}
	if c.Budget > 0 {
		opts = append(opts, host.WithBudget(c.Budget))
	}
	eng, err := host.New(ctx, opts...)
	if err != nil {
		return nil, err
	}
	// Say at start-up which plugins run, from where, with which digest.
	for _, pi := range eng.Plugins(ctx) {
		attrs := []any{"plugin", pi.Path, "status", pi.Status, "source", pi.Source, "sha256", pi.SHA256, "tools", strings.Join(pi.Tools, ",")}
		switch pi.Status {
		case host.PluginMissing, host.PluginFailed:
			log.Warn("plugin not usable; the declarative rules run instead", append(attrs, "err", pi.Error)...)
		case host.PluginLoaded:
			log.Info("plugin", attrs...)
		}
	}
	return eng, nil
}

// sidecarContext ends on SIGINT or SIGTERM.
func sidecarContext(ctx context.Context) (context.Context, context.CancelFunc) {
	return signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
}

// runServe is the "compact serve" subcommand: the HTTP JSON API.
func runServe(e *env) int {
	c, rest, code := sidecarFlags("serve", e, false, e.args)
	if code >= 0 {
		return code
	}
	if len(rest) > 0 {
		fmt.Fprintf(e.stderr, "compact serve: unexpected arguments %q\n", rest)
		return ExitUsage
	}
	if c.Listen == "" {
		c.Listen = server.DefaultListen
	}
	log, err := c.logger(e.stderr)
	if err != nil {
		report(e.stderr, "compact serve", err)
		return ExitUsage
	}
	if err := server.CheckListen(c.Listen, c.Token); err != nil {
		report(e.stderr, "compact serve", err)
		return ExitUsage
	}
	ctx, stop := sidecarContext(e.ctx)
	defer stop()
	eng, err := c.engine(ctx, log)
	if err != nil {
		report(e.stderr, "compact serve", err)
		return engineExit(err)
	}
	defer eng.Close(context.Background())
	srv, err := server.New(server.Config{
		Engine: server.Adapt(eng), Budget: c.Budget, MaxBody: int64(c.MaxBody), Timeout: c.Timeout,
		Token: c.Token, Logger: log, MaxInFlight: c.MaxInFlight, AllowedHosts: c.AllowedHosts,
	})
	if err != nil {
		report(e.stderr, "compact serve", err)
		return ExitFailure
	}
	ln, err := net.Listen("tcp", c.Listen)
	if err != nil {
		report(e.stderr, "compact serve", err)
		return ExitFailure
	}
	if err := server.Serve(ctx, ln, srv, c.Grace, log); err != nil {
		report(e.stderr, "compact serve", err)
		return ExitFailure
	}
	return ExitOK
}

// engineExit maps an engine start-up error to an exit code.
func engineExit(err error) int { return exitCode(err) }

// hostsFlag is a repeatable --allowed-host.
type hostsFlag struct{ p *[]string }

func (f hostsFlag) String() string {
	if f.p == nil {
		return ""
	}
	return strings.Join(*f.p, ",")
}

func (f hostsFlag) Set(s string) error {
	s = strings.TrimSpace(s)
	if s == "" || strings.ContainsAny(s, "/ ") {
		return fmt.Errorf("want a host name or address, got %q", s)
	}
	*f.p = append(*f.p, s)
	return nil
}
