// Package view builds what the model reads when a tool output does not fit
// its budget: a view of the output (its facts, the profile of every
// collection, chosen rows with the reason each is there, what is not
// shown and the queries that fetch exactly that) that fits an exact token
// budget. Level 2 of package budget stores the full original and shows
// this view with the artifact's handle.
//
// The view is one small pipeline; read the files in this order:
//
//	profile.go     one pass over the records of a collection: per dot-path
//	               field its types, present/null counts, distinct values
//	               (every value with its count when there are few), numeric
//	               min/max/sum/mean, time earliest/latest, string lengths,
//	               and the identity field. Exact: the view states these
//	               numbers. The same pass gathers what the choice of rows
//	               needs (rows.go's tracker: per value its first records,
//	               per field its largest and smallest numbers, ...), each
//	               bounded by a cap, not by the number of records; there
//	               is no second walk over all the records. Given the
//	               collection's text (Collection.Text, the slice level 1's
//	               walk has), the pass reads an array's or a stream's
//	               records itself, finding where each ends as it profiles
//	               it. Fields the
//	               rules drop are counted (present, types, nulls), not
//	               profiled: the view shows nothing of them but their
//	               number. Of the records kept as extremes and outliers,
//	               only those that can be among the rows shown are read
//	               again (rows.go).
//	scan.go        jscan, the walk over JSON text every file reads the
//	               records with: eachMember, members and elements step
//	               through an object's members and an array's elements.
//	candidates.go  every piece the view could show, each with a reason and
//	               a priority: top-level facts, keyed maps, profile lines,
//	               rows (pinned, error states, rare values, outliers, a
//	               field most rows lack, relevant to the request, change
//	               points, extremes, first and last, then an even spread).
//	               A collection of one record is stated by its members
//	               (onerecord.go); the profile lines of a heavier
//	               collection come before a lighter one's. After the rows
//	               of the first rounds, index.go lists the records densely,
//	               one line each: identity and two short fields, picked
//	               by their values (or the registry's index fields), in
//	               record order, key order or the registry's sort order;
//	               a record whose row comes first with every cell of its
//	               line has no line (the foot counts them).
//	               A round is capped (16 rows of rare values; the first
//	               16 pinned rows, the other pinned records on a pinned
//	               list in the index's form, their rows later, one after
//	               every four index lines), so every kind gets budget; an
//	               opaque field (a hash) has lines of its own, last.
//	               A dependency tree (npm ls) is listed by deptree.go,
//	               one line per node: its dependencies as name@version.
//	               Beside them: facts.go (what a document holds outside
//	               its collections), json_map.go (a flat map of scalars:
//	               values by type, shared values, keys by prefix),
//	               fold.go (many sibling collections in one section),
//	               tree.go and treenodes.go (records nesting records: the
//	               totals over every depth, the nodes breadth-first),
//	               json_nodes.go (a tree of unnamed nodes, EXPLAIN's
//	               plan: every node at every depth, the root included,
//	               one collection whose path is a jq expression),
//	               dupcols.go (a field repeating another's values, stated
//	               once), holders.go (the records of a rare value, named:
//	               "the 5 records with code=404, their url in order: ...")
//	               and query.go (the follow-up queries, runnable as
//	               written).
//	fill.go        one walk over the candidates in a fixed order (priority,
//	               then the order they were added) keeping the longest
//	               prefix whose rendering fits the budget, counted exactly.
//	               A row's text is made when the fill first reaches it
//	               (its record read again then), not for every row a
//	               reason chose.
//	               The order does not depend on the budget, so the view at a
//	               bigger budget holds everything the view at a smaller one
//	               holds.
//	render.go      the chosen candidates as text, section by section: each
//	               section's head (with counts of what is shown), its chosen
//	               candidates in their natural order (record or line
//	               number), its foot ("not shown" lines with exact counts
//	               and the queries that fetch exactly the rest).
//
// # Adding a kind of candidate
//
// A kind of candidate is a function that looks at the input and calls
// View.Add for every piece it could show, in its own preferred order:
//
//	sec := v.AddSection(&Section{Coll: ".", Head: ..., Foot: ...})
//	v.Add(Candidate{Section: sec, Key: lineNo, Record: lineNo,
//		Prio: PrioAnomaly, Reason: "error line",
//		Text: "  42 [error line] panic: boom"})
//
// Give it one of the Prio constants (lower is shown first); within one
// priority, candidates keep the order they were added. A candidate's Text
// must be complete (one or more lines, no final newline) and must not
// depend on the budget or on which other candidates are chosen: that is
// what keeps a bigger view a superset of a smaller one. What depends on
// the choice (how many rows are shown, the query for the rest) belongs in
// the section's Head and Foot functions, which get the chosen candidates.
// Record is the record (line, element, member) the candidate shows, or -1;
// the section's Coll names the collection, and level 2 reports the
// number of distinct records shown per collection as its "shown" count.
//
// Build adds the candidates of structured outputs (JSON, JSON Lines,
// concatenated JSON); text outputs get theirs from the text*.go files:
//
//	text_prefix.go      a constant line prefix (valgrind's ==PID==, a pod's
//	                    [name]) removed before reading, and from every query
//	text_profile.go     one pass over the lines: kind, records, severity,
//	                    templates, fields, and a table's column profile
//	text_columns.go     tables: how lines split (spaces, tabs; detection),
//	                    each column's exact profile, the rows it chooses
//	text_split.go       more separators: bars (psql, sqlite3, Markdown),
//	                    runs of tabs, rows with fewer cells, an indentation
//	                    removed before the split, lists of one value a line,
//	                    fixed-width columns
//	text_list.go        columns of names (marks, repeats, shared starts and
//	                    ends, forms, parts between ", ") and the dense index
//	                    of a table's rows
//	text_paths.go       columns of paths: rows by directory where the paths
//	                    split, by directory name, file name, extension and
//	                    depth; the rows of a rare directory
//	text_records.go     texts of records: shown whole, or an index with
//	                    per-record counts of lines by kind and a table's sums
//	text_testrun.go     go test, TAP, go test -json
//	text_testreport.go  jest, vitest, mocha, pytest -v: suites, tests by
//	                    status, failed/skipped/todo names, the runner's summary
//	text_gitgraph.go    git log --oneline/--graph: commits, merges, refs
//	text_diff.go        unified diffs: files, hunks, +/- lines per file
//	text_locations.go   lines with a source location (file:line:col:,
//	                    file(line,col):, markdownlint's file:line message,
//	                    grep -n's file:line:text): by file, directory
//	                    and code; the rare forms of a text of located
//	                    diagnostics (go build -gcflags=-m)
//	text_tagged.go      colon-separated records with a type tag (gpg
//	                    --with-colons): each type's fields counted
//	text_kv.go          key/value lines (NAME=value, key = value, Key: value,
//	                    #define NAME value): values, name groups, entries
//	text_severity.go    which lines are errors or warnings (not a severity
//	                    word in code, in prose or in a tool's summary)
//	text_template.go    templates of the lines with exact counts (Drain)
//	text_facts.go       the facts a whole text states when it fits
//	text.go             the text's candidates in fill order
//
// The counts of the report kinds are each tested against an independent
// computation (the lines, the runner's summary, git's own counts).
package view
