// Package live plays agents whose decisions are answered outside Go — a Python policy in
// kingoal.arena and kingoal.evaluate — in batches: every match in flight that waits on such
// an agent queues its decision in a Hub, and the program behind the agent takes all of
// them at once (Hub.Next), runs its policy once on the batch and answers each (Request.Answer).
// Nothing is tabulated first, so any policy plays: a network, a recurrent one keeping state
// by match, a search.
//
// A Hub's Agent is an agents.Agent (the registry's "live:NAME", built through
// agents.Setup.Live): one per goroutine that plays, like every agent. It draws its action
// from the answered probabilities with its own stream (Reset), so a run is the same whatever
// order the batches come in, as long as the policy's answers depend only on what it is shown.
// The batches are as large as the matches waiting: an arena playing a live agent runs many
// matches at once (its Workers), and the batch is whatever queued while the last one was
// answered.
package live
