"""Discord's documented size and shape limits, so tests catch what production would reject.

Each check returns a list of problems (empty when the payload is acceptable); the
server answers 400 "Invalid Form Body" with those sentences.
"""

from __future__ import annotations

import base64
import re
import unicodedata
from typing import Any

from .models import COMPONENTS_V2, JSON, shown_name, walk_components

CONTENT_MAX = 2000
ATTACHMENT_DESCRIPTION_MAX = 1024
EMBEDS_MAX = 10
EMBED_TOTAL_MAX = 6000
EMBED_LIMITS = {"title": 256, "description": 4096}
FIELD_MAX = 25
ROWS_MAX = 5
ROW_BUTTONS_MAX = 5
CUSTOM_ID_MAX = 100
LABEL_MAX = 80
SELECT_OPTIONS_MAX = 25
CHOICES_MAX = 25
V2_COMPONENTS_MAX = 40
NAME_MAX = 32
DESCRIPTION_MAX = 100
CHOICE_NAME_MAX = 100
LOCALES = frozenset({"id", "da", "de", "en-GB", "en-US", "es-ES", "es-419", "fr", "hr", "it", "lt", "hu", "nl", "no",
                     "pl", "pt-BR", "ro", "fi", "sv-SE", "vi", "tr", "cs", "el", "bg", "ru", "uk", "hi", "th", "zh-CN",
                     "ja", "zh-TW", "ko"})
"""The locales Discord accepts as keys of `name_localizations` and `description_localizations`."""
SCRIPT_RANGES = (("\u0900", "\u097f"), ("\u0e00", "\u0e7f"))
"""Devanagari and Thai, whose combining signs a command name may hold besides letters and digits."""
ACTIONABLE = {2, 3, 5, 6, 7, 8}
SUBCOMMAND, GROUP = 1, 2
ALLOWED_PARSE = {"users", "roles", "everyone"}


def _length(value: Any) -> int:
    return len(value) if isinstance(value, str) else 0


def check_embed(embed: JSON, where: str) -> tuple[list[str], int]:
    """Problems with one embed, and how many characters it counts towards the 6000 total."""
    problems: list[str] = []
    total = 0
    for key, limit in EMBED_LIMITS.items():
        size = _length(embed.get(key))
        total += size
        if size > limit:
            problems.append(f"{where}.{key} is {size} characters; the limit is {limit}")
    fields = embed.get("fields", [])
    if len(fields) > FIELD_MAX:
        problems.append(f"{where} has {len(fields)} fields; the limit is {FIELD_MAX}")
    for i, fld in enumerate(fields):
        name, value = fld.get("name") or "", fld.get("value") or ""
        total += len(name) + len(value)
        if not name or not value:
            problems.append(f"{where}.fields[{i}] needs a non-empty name and value")
        if len(name) > 256 or len(value) > 1024:
            problems.append(f"{where}.fields[{i}] is too long (name 256, value 1024)")
    footer = _length(embed.get("footer", {}).get("text"))
    author = _length(embed.get("author", {}).get("name"))
    total += footer + author
    if footer > 2048:
        problems.append(f"{where}.footer.text is longer than 2048 characters")
    if author > 256:
        problems.append(f"{where}.author.name is longer than 256 characters")
    return problems, total


def check_button(comp: JSON, where: str) -> list[str]:
    problems: list[str] = []
    style = comp.get("style")
    if style == 5:
        if not comp.get("url"):
            problems.append(f"{where}: a link button needs a url")
    elif style != 6 and not comp.get("custom_id"):
        problems.append(f"{where}: a button needs a custom_id")
    if not comp.get("label") and not comp.get("emoji"):
        problems.append(f"{where}: a button needs a label or an emoji")
    if _length(comp.get("label")) > LABEL_MAX:
        problems.append(f"{where}: button label is longer than {LABEL_MAX} characters")
    return problems


def check_select(comp: JSON, where: str) -> list[str]:
    problems: list[str] = []
    low, high = comp.get("min_values", 1), comp.get("max_values", 1)
    if not 0 <= low <= 25 or not 1 <= high <= 25 or low > high:
        problems.append(f"{where}: min_values/max_values {low}/{high} are out of range")
    if _length(comp.get("placeholder")) > 150:
        problems.append(f"{where}: placeholder is longer than 150 characters")
    if comp.get("type") != 3:
        return problems
    options = comp.get("options", [])
    if not 1 <= len(options) <= SELECT_OPTIONS_MAX:
        problems.append(f"{where}: a select menu needs 1 to {SELECT_OPTIONS_MAX} options, not {len(options)}")
    values = [o.get("value") for o in options]
    if len(set(values)) != len(values):
        problems.append(f"{where}: option values must be unique")
    if high > len(options):
        problems.append(f"{where}: max_values {high} exceeds the {len(options)} options")
    for j, opt in enumerate(options):
        for key in ("label", "value"):
            if not 1 <= _length(opt.get(key)) <= 100:
                problems.append(f"{where}.options[{j}].{key} must be 1 to 100 characters")
        if _length(opt.get("description")) > 100:
            problems.append(f"{where}.options[{j}].description is longer than 100 characters")
    return problems


def check_actionable(comp: JSON, where: str) -> list[str]:
    custom_id = comp.get("custom_id")
    problems = []
    if custom_id is not None and not 1 <= _length(custom_id) <= CUSTOM_ID_MAX:
        problems.append(f"{where}: custom_id must be 1 to {CUSTOM_ID_MAX} characters, got {custom_id!r}")
    if comp.get("type") == 2:
        problems += check_button(comp, where)
    else:
        problems += check_select(comp, where)
    return problems


def check_v1_components(components: list[JSON]) -> list[str]:
    problems: list[str] = []
    if len(components) > ROWS_MAX:
        problems.append(f"{len(components)} action rows; the limit is {ROWS_MAX}")
    for i, row in enumerate(components):
        where = f"components[{i}]"
        if row.get("type") != 1:
            problems.append(f"{where} must be an action row (type 1) without the components-v2 flag")
            continue
        children = row.get("components", [])
        kinds = {c.get("type") for c in children}
        if not children:
            problems.append(f"{where} is an empty action row")
        elif kinds == {2} and len(children) > ROW_BUTTONS_MAX:
            problems.append(f"{where} holds {len(children)} buttons; the limit is {ROW_BUTTONS_MAX}")
        elif kinds != {2} and len(children) != 1:
            problems.append(f"{where}: a select menu must be alone in its row")
    return problems


def check_components(components: list[JSON], flags: int) -> list[str]:
    """Row layout, per-component limits and unique custom_ids."""
    every = walk_components(components)
    problems = [] if flags & COMPONENTS_V2 else check_v1_components(components)
    if flags & COMPONENTS_V2 and len(every) > V2_COMPONENTS_MAX:
        problems.append(f"{len(every)} components; the limit is {V2_COMPONENTS_MAX}")
    seen: set[str] = set()
    for n, comp in enumerate(every):
        if comp.get("type") not in ACTIONABLE:
            continue
        problems += check_actionable(comp, f"component #{n} ({comp.get('custom_id')!r})")
        custom_id = comp.get("custom_id")
        if custom_id is not None:
            if custom_id in seen:
                problems.append(f"custom_id {custom_id!r} is used twice in one message")
            seen.add(custom_id)
    return problems


def check_allowed_mentions(rules: JSON | None) -> list[str]:
    if rules is None:
        return []
    parse = rules.get("parse", [])
    problems = [f"allowed_mentions.parse has unknown value {p!r}" for p in parse if p not in ALLOWED_PARSE]
    for kind in ("users", "roles"):
        if kind in parse and rules.get(kind):
            problems.append(f"allowed_mentions: parse {kind!r} and a {kind} list are mutually exclusive")
    return problems


def check_message(message: JSON, *, attachments: int, creating: bool) -> list[str]:
    """Everything Discord checks on a message body (create, or the result of an edit)."""
    problems: list[str] = []
    content = message.get("content") or ""
    embeds = message.get("embeds") or []
    components = message.get("components") or []
    flags = int(message.get("flags") or 0)
    if len(content) > CONTENT_MAX:
        problems.append(f"content is {len(content)} characters; the limit is {CONTENT_MAX}")
    if len(embeds) > EMBEDS_MAX:
        problems.append(f"{len(embeds)} embeds; the limit is {EMBEDS_MAX}")
    total = 0
    for i, embed in enumerate(embeds):
        found, size = check_embed(embed, f"embeds[{i}]")
        problems += found
        total += size
    if total > EMBED_TOTAL_MAX:
        problems.append(f"embeds hold {total} characters together; the limit is {EMBED_TOTAL_MAX}")
    if flags & COMPONENTS_V2 and (content or embeds):
        problems.append("a components-v2 message cannot also have content or embeds")
    problems += check_components(components, flags)
    problems += check_allowed_mentions(message.get("allowed_mentions"))
    if creating and not (content or embeds or components or attachments):
        problems.append("Cannot send an empty message")
    return problems


def check_attachment(filename: str, description: str | None) -> list[str]:
    """An upload's alt text (its description) is at most 1024 characters."""
    if _length(description) > ATTACHMENT_DESCRIPTION_MAX:
        return [f"attachment {filename}: description is {_length(description)} characters; "
                f"the limit is {ATTACHMENT_DESCRIPTION_MAX}"]
    return []


def check_choices(choices: list[JSON], where: str = "autocomplete") -> list[str]:
    """A command option's choices, or the ones an autocomplete answer offers: at most 25, names (in every
    locale) of 1 to 100 characters, string values of at most 100."""
    problems: list[str] = []
    if len(choices) > CHOICES_MAX:
        problems.append(f"{where}: {len(choices)} choices; the limit is {CHOICES_MAX}")
    for i, choice in enumerate(choices):
        here = f"{where} choices[{i}]"
        if not 1 <= _length(choice.get("name")) <= CHOICE_NAME_MAX:
            problems.append(f"{here}.name must be 1 to {CHOICE_NAME_MAX} characters")
        problems += _check_localizations(choice, here, chat_input=False, described=False, name_max=CHOICE_NAME_MAX)
        value = choice.get("value")
        if isinstance(value, str) and len(value) > 100:
            problems.append(f"{here}.value is longer than 100 characters")
    return problems


def is_command_name(name: object) -> bool:
    """Discord's rule for a slash command or option name, ^[-_\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$,
    in lowercase wherever a letter has a lowercase form (so "plättchen" and "rückgängig" are names)."""
    return (isinstance(name, str) and 1 <= len(name) <= NAME_MAX and name == name.lower()
            and all(_name_character(c) for c in name))


def _name_character(char: str) -> bool:
    return (char in "-_" or unicodedata.category(char)[0] in "LN"
            or any(low <= char <= high for low, high in SCRIPT_RANGES))


def _check_localizations(item: JSON, where: str, *, chat_input: bool, described: bool,
                         name_max: int = NAME_MAX) -> list[str]:
    """Each localized name and description: a Discord locale as key, the same rule as the default as value."""
    problems: list[str] = []
    for field, texts in (("name_localizations", item.get("name_localizations")),
                         ("description_localizations", item.get("description_localizations"))):
        if texts is None:
            continue
        if not isinstance(texts, dict) or (field == "description_localizations" and not described):
            problems.append(f"{where}: {field} is not allowed here or is not a dictionary")
            continue
        for locale, text in texts.items():
            here = f"{where}: {field}[{locale!r}]"
            if locale not in LOCALES:
                problems.append(f"{here} is not a Discord locale")
            elif field == "description_localizations":
                if not 1 <= _length(text) <= DESCRIPTION_MAX:
                    problems.append(f"{here} must be 1 to {DESCRIPTION_MAX} characters")
            elif chat_input and not is_command_name(text):
                problems.append(f"{here} {text!r} must be 1-{NAME_MAX} lowercase letters, digits, - or _")
            elif not 1 <= _length(text) <= name_max:
                problems.append(f"{here} must be 1 to {name_max} characters")
    return problems


def _check_name(item: JSON, where: str, *, chat_input: bool) -> list[str]:
    name = item.get("name", "")
    problems = _check_localizations(item, where, chat_input=chat_input, described=chat_input)
    if not chat_input:
        return problems + ([] if 1 <= _length(name) <= NAME_MAX else [f"{where}: name must be 1 to 32 characters"])
    if not is_command_name(name):
        problems.append(f"{where}: name {name!r} must be 1-32 lowercase letters, digits, - or _")
    if not 1 <= _length(item.get("description")) <= DESCRIPTION_MAX:
        problems.append(f"{where}: description must be 1 to 100 characters")
    return problems


def check_sibling_names(siblings: list[JSON], where: str) -> list[str]:
    """Names side by side stay apart in every language: unique as each locale shows them, and a localized
    name is never another sibling's default name (Discord sends default names, so it could not tell them apart)."""
    problems: list[str] = []
    defaults = {str(s.get("name")) for s in siblings}
    locales = sorted({locale for s in siblings for locale in s.get("name_localizations") or {}})
    for locale in locales:
        shown = [shown_name(s, locale) for s in siblings]
        twice = sorted({name for name in shown if shown.count(name) > 1})
        if twice:
            problems.append(f"{where}: {twice} name more than one option in {locale}")
        for sibling, name in zip(siblings, shown, strict=True):
            if name != sibling.get("name") and name in defaults:
                problems.append(f"{where} > {sibling.get('name')}: its {locale} name {name!r} is another one's name")
    return problems


def check_options(options: list[JSON], where: str) -> list[str]:
    problems: list[str] = []
    if len(options) > 25:
        problems.append(f"{where}: {len(options)} options; the limit is 25")
    names = [o.get("name") for o in options]
    if len(set(names)) != len(names):
        problems.append(f"{where}: option names must be unique")
    problems += check_sibling_names(options, where)
    kinds = {o.get("type") for o in options}
    if kinds & {SUBCOMMAND, GROUP} and not kinds <= {SUBCOMMAND, GROUP}:
        problems.append(f"{where}: subcommands cannot be mixed with plain options")
    optional_seen = False
    for opt in options:
        here = f"{where} > {opt.get('name')}"
        problems += _check_name(opt, here, chat_input=True)
        if opt.get("type") in (SUBCOMMAND, GROUP):
            problems += check_options(opt.get("options", []), here)
            continue
        if opt.get("required"):
            if optional_seen:
                problems.append(f"{here}: required options must come before optional ones")
        else:
            optional_seen = True
        choices = opt.get("choices") or []
        problems += check_choices(choices, here)
        if choices and opt.get("autocomplete"):
            problems.append(f"{here}: autocomplete and choices are mutually exclusive")
    return problems


def check_commands(commands: list[JSON]) -> list[str]:
    """What Discord refuses when an application registers its commands."""
    problems: list[str] = []
    seen: set[tuple[int, str]] = set()
    chat = [c for c in commands if c.get("type", 1) == 1]
    if len(chat) > 100:
        problems.append(f"{len(chat)} slash commands; the limit is 100")
    problems += check_sibling_names(chat, "slash commands")
    for cmd in commands:
        kind = cmd.get("type", 1)
        where = f"command {cmd.get('name')!r}"
        key = (kind, cmd.get("name", ""))
        if key in seen:
            problems.append(f"{where} is registered twice")
        seen.add(key)
        problems += _check_name(cmd, where, chat_input=kind == 1)
        problems += check_options(cmd.get("options") or [], where)
    return problems


def check_modal(modal: JSON) -> list[str]:
    """A modal's title, size and inputs."""
    problems: list[str] = []
    if not 1 <= _length(modal.get("title")) <= 45:
        problems.append("a modal title must be 1 to 45 characters")
    if not 1 <= _length(modal.get("custom_id")) <= CUSTOM_ID_MAX:
        problems.append(f"a modal custom_id must be 1 to {CUSTOM_ID_MAX} characters")
    components = modal.get("components") or []
    if not 1 <= len(components) <= 5:
        problems.append(f"a modal holds 1 to 5 components, not {len(components)}")
    for comp in walk_components(components):
        if comp.get("type") == 4:
            if not 1 <= _length(comp.get("custom_id")) <= CUSTOM_ID_MAX:
                problems.append("every text input needs a custom_id of 1 to 100 characters")
            if _length(comp.get("label")) > 45:
                problems.append(f"text input label {comp.get('label')!r} is longer than 45 characters")
    return problems


EMOJI_NAME_RE = re.compile(r"^[A-Za-z0-9_]{2,32}$")
EMOJI_IMAGE_MAX = 256 * 1024
"""An emoji image may be at most 256 KiB."""
APPLICATION_EMOJIS_MAX = 2000
EMOJI_IMAGE_RE = re.compile(r"^data:image/(png|jpeg|gif|webp);base64,([A-Za-z0-9+/=]+)$")


def check_emoji(payload: JSON, taken: set[str]) -> list[str]:
    """Problems with a new application emoji: its name, its image (a data URI), a name already used."""
    problems: list[str] = []
    name = payload.get("name")
    if not isinstance(name, str) or not EMOJI_NAME_RE.fullmatch(name):
        problems.append(f"name: {name!r} must be 2-32 characters of letters, digits and _")
    elif name in taken:
        problems.append(f"name: APPLICATION_EMOJI_NAME_ALREADY_TAKEN ({name!r})")
    image = payload.get("image")
    match = EMOJI_IMAGE_RE.fullmatch(image) if isinstance(image, str) else None
    if match is None:
        problems.append("image: must be a data URI of a PNG, JPEG, GIF or WebP image")
    elif len(base64.b64decode(match.group(2))) > EMOJI_IMAGE_MAX:
        problems.append(f"image: larger than {EMOJI_IMAGE_MAX} bytes")
    return problems
