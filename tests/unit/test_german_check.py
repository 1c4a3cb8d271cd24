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
