"""The side record of C8.0: per Gun, the special ammunition it may still use."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ordnance.asl.notation import Family
from ordnance.asl.record import SideRecord
from ordnance.core.errors import BadInput, IllegalAction

COUNTERS = {"PaK 40": "A5(2)/4(3)/3(4) H6(3+)!", "M4A3 #2": "s5(J4+) WP7(J4+)!3 sM5(4+)"}


@pytest.mark.clause("C8.0", "C8.9-lt")
def test_used_keeps_the_ammunition():
    record = SideRecord.new(COUNTERS).after("PaK 40", Family.APCR, "used")
    assert record.entry("PaK 40").usable(Family.APCR)


@pytest.mark.clause("C8.0", "C8.9-eq")
def test_used_last_removes_it_for_the_scenario():
    record = SideRecord.new(COUNTERS).after("PaK 40", Family.APCR, "used-last")
    assert not record.entry("PaK 40").usable(Family.APCR)
    assert record.entry("PaK 40").usable(Family.HEAT)  # other ammunition is untouched
    with pytest.raises(IllegalAction) as refused:
        record.after("PaK 40", Family.APCR, "used")
    assert refused.value.clause == "C8.9-eq"


@pytest.mark.clause("C8.0", "C8.9-gt")
def test_none_means_it_never_had_any():
    record = SideRecord.new(COUNTERS).after("M4A3 #2", Family.WP, "none")
    assert not record.entry("M4A3 #2").usable(Family.WP)
    assert record.entry("M4A3 #2").usable(Family.SMOKE)


@pytest.mark.clause("C8.0")
def test_a_gun_without_the_capability_is_refused():
    with pytest.raises(IllegalAction, match="lists no APDS"):
        SideRecord.new(COUNTERS).after("PaK 40", Family.APDS, "used")
    with pytest.raises(BadInput, match="no such Gun"):
        SideRecord.new(COUNTERS).after("Tiger", Family.APCR, "used")
    with pytest.raises(BadInput, match="one of"):
        SideRecord.new(COUNTERS).after("PaK 40", Family.APCR, "maybe")


@pytest.mark.clause("C8.0")
@given(
    st.lists(
        st.tuples(
            st.sampled_from(sorted(COUNTERS)),
            st.sampled_from([Family.APCR, Family.HEAT, Family.SMOKE, Family.WP]),
            st.sampled_from(["used", "used-last", "none"]),
        ),
        max_size=8,
    )
)
def test_record_survives_its_text_form_at_every_step(shots):
    record = SideRecord.new(COUNTERS)
    for gun, family, outcome in shots:
        try:
            record = record.after(gun, family, outcome)
        except IllegalAction:
            continue  # refused shots leave the record unchanged
        assert SideRecord.from_json(record.to_json()) == record
    assert SideRecord.from_json(record.to_json()) == record
