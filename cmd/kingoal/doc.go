// Command kingoal is the command-line interface of the Kingoal toolkit.
//
//	kingoal rules [rule flags]            the rules, every knob and its default
//	kingoal lineups [--json]              the 121 line-ups and their stable indices
//	kingoal simulate [HOME [AWAY]] ...    Monte Carlo of matches between fixed line-ups
//	kingoal solve odds|matrix|equilibrium|counter|policy|game ...  exact answers from the solver
//	kingoal agents [--json]               the agent registry: specs and parameters
//	kingoal watch A B                     one match between two agents, throw by throw
//	kingoal play SPEC                     play a match against an agent in the terminal
//	kingoal train qlearning ...           train a Q-learning model
//	kingoal eval SPEC ...                 score, regret and exploitability of an agent
//	kingoal arena ...                     a league, gauntlet or cups between agents, Parquet logs
//	kingoal leaderboard DIR               re-print an arena run's leaderboard from its files
//	kingoal datasets inspect|export|generate ...  read, convert and generate datasets
//	kingoal help exit-codes               what each exit code means
//
// kingoal help COMMAND says more about each.
//
// Every command that plays takes the rule flags (--knockout, --ties-count,
// --throws-per-half, --extra-throws, --moves, --home-mode, --away-mode,
// --dynamic-trigger, --points). Data goes to standard output, progress and status to
// standard error; bad input exits with code 2 and one line on standard error.
//
// The commands live in frontend/cli (shared with kingoal-beam, which runs the same arena
// and dataset generation on Apache Beam); the work is done by the library packages.
package main
