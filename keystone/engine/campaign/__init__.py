"""The Field Journal: solo assignments, each a setup, special rules and goals, and their judge.

Pure like the rest of the engine: the only input it reads is the packaged `journal.json`. The
Discord layer (/journal) and the store build on these functions:
- the journal: `assignments()`, `assignment(n)` (title, place, story, `setup_lines()`, rules with
  their `name`/`text`, `goal_lines()`), `story_species(n)`; every word in English or German:
  `title_in(lang)`, `story_in(lang)`, a rule's `name_in(lang)`/`text_in(lang)`, `setup_lines(lang)`,
  `goal_lines(lang)`, `judge(n, state, lang)` / `progress(n, state, lang)` for the verdict, and
  `rule_name_in(name, lang)` for a rule's name as a game's config keeps it (in English); a story
  rule's `text_in(lang)` ends with its `cards_sentence(lang)`, naming from `species` exactly the
  cards its goal counts, and the verdict repeats that sentence after the goals;
- playing: `config_for(n, coop)` or `start(n, seed, name, coop)`; the config carries
  `assignment=n`, so a saved state is judged on its own; `keystone.engine.coop.acting_player`
  says which partner decides a co-op turn;
- the end: `judge(n, state)` -> `AssignmentResult` (won, stars, `sentences()`), and during play
  `progress(n, state)` or the cheaper `goal_values(n, state)`;
- progress per player, kept by the store: `recommended(won)` names the next assignment in order
  (every one may be played at any time), and `envelope_open(started)` says whether the person has
  started the last one (then offer `expansions=[ENVELOPE]` everywhere).

Modules: `setup` (setup, special rules, the journal's size), `goals` (what each goal measures),
`journal` (the assignments and loading them), `verdict` (judging a game), `recommend` (what to
play next, and when the envelope opens), `words` (sentences the journal page and verdict share).
"""

from keystone.engine.campaign.goals import Goal
from keystone.engine.campaign.journal import (
    Assignment,
    assignment,
    assignments,
    build_journal,
    config_for,
    rule_name_in,
    start,
    story_species,
)
from keystone.engine.campaign.recommend import envelope_open, recommended
from keystone.engine.campaign.setup import (
    ENVELOPE,
    LAST_ASSIGNMENT,
    DisabledSkill,
    ExtraDiscards,
    JournalError,
    NoWilds,
    Rule,
    Setup,
    StoryTokens,
    UnknownAssignment,
    WildCost,
)
from keystone.engine.campaign.verdict import AssignmentResult, GoalOutcome, evaluate, goal_values, judge, progress

__all__ = [
    "ENVELOPE",
    "LAST_ASSIGNMENT",
    "Assignment",
    "AssignmentResult",
    "DisabledSkill",
    "ExtraDiscards",
    "Goal",
    "GoalOutcome",
    "JournalError",
    "NoWilds",
    "Rule",
    "Setup",
    "StoryTokens",
    "UnknownAssignment",
    "WildCost",
    "assignment",
    "assignments",
    "build_journal",
    "config_for",
    "envelope_open",
    "evaluate",
    "goal_values",
    "judge",
    "progress",
    "recommended",
    "rule_name_in",
    "start",
    "story_species",
]
