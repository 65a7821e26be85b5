// Package train runs the learners' training as the library's own jobs, as package arena
// runs competitions: Q-learning against an opponent with its model, learning curve and chart
// (QLearning), and full-width fictitious self-play with its exact exploitability curve, its
// checkpoint after every iteration and its policy table (Fictitious). Every file is written
// atomically, and an interrupted run resumes to the bytes of an uninterrupted one.
package train
