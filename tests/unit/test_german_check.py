"""The check the German end-to-end games rely on finds English and passes German."""

from german import english_in


def test_an_english_sentence_is_found():
    assert english_in("Alice wins: reached the castle.") == ["wins", "the", "castle"]


def test_german_sentences_with_names_and_cards_pass():
    for sentence in (
        "Alice gewinnt: Sie hat die Burg erreicht.",
        "Bob spielt Q♠ · Stich 3 · Trumpf: Herz",
        "Was nun? Die Hand von AdaBot ist in der Mitte.",
    ):
        assert english_in(sentence) == [], sentence


def test_a_repository_path_is_a_name_not_english():
    assert english_in("**Alle Regeln:** `docs/rules/de/barbu.md` im Repository.") == []
    assert english_in("Siehe docs/rules/de/bann.md, the rules.") == ["the", "rules"]


def test_a_typed_notation_is_a_name_but_a_typed_english_command_is_not():
    assert english_in("Doppel `double:2,4` oder `pass`.") == []
    assert english_in("Siehe `/game export`.") == ["game"]


def test_a_commands_english_name_after_the_german_one_is_a_name():
    assert english_in("Prüfbar mit `/partie export partie:1` (oder `/game export game:1`).") == []
    assert english_in("am Ende aufgedeckt, mit /partie export (oder /game export) prüfbar") == []
