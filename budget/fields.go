package budget

// nodeRule caches level 1's decision for one path node.
type nodeRule struct{}
