package server

import "github.com/toolcompact/compact/host"

// Adapt returns the API's view of a host.Engine: compaction, the store,
// whole-prompt fitting (Engine.Context) and artifact queries
// (Engine.QueryArtifact, through the engine's querier and its shared
// cache).
func Adapt(e *host.Engine) Engine { return adapter{e} }

// adapter is the engine itself (its methods implement Engine,
// ContextFitter and ArtifactQuerier) plus EntryNamer.
type adapter struct{ *host.Engine }

// EntryName implements EntryNamer.
func (a adapter) EntryName(tool string) string { return a.Registry().Lookup(tool).Name }

var (
	_ ContextFitter   = adapter{}
	_ ArtifactQuerier = adapter{}
	_ EntryNamer      = adapter{}
)
