package agents

// ExactExploitabilityBySolveBasic is exactExploitability, for the tests that hold the
// tabulated best responses to it.
var ExactExploitabilityBySolveBasic = exactExploitability

// PolicyExploitability is policyExploitability (Exploit tries SolveBasic first).
var PolicyExploitability = policyExploitability

// EstimateExploitability is the Monte Carlo lower bound Exploit falls back to.
var EstimateExploitability = estimateExploitability
