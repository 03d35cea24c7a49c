import { describe, expect, test } from "bun:test";
import { inWindow, localTime } from "./time.ts";

// 2026-11-30 is a Monday.
const at = (iso: string, utcOffsetMinutes = 0) => localTime({ epochMs: Date.parse(iso), utcOffsetMinutes });

describe("localTime", () => {
  test("reads the day (0 = Sunday) and hour in the offset passed in", () => {
    expect(at("2026-11-30T12:30:00Z")).toEqual({ day: 1, hour: 12.5 });
    expect(at("2026-11-29T23:00:00Z")).toEqual({ day: 0, hour: 23 });
    // 23:00 UTC on Sunday is 01:00 Monday at UTC+2, and 18:00 Sunday at UTC-5.
    expect(at("2026-11-29T23:00:00Z", 120)).toEqual({ day: 1, hour: 1 });
    expect(at("2026-11-29T23:00:00Z", -300)).toEqual({ day: 0, hour: 18 });
  });

  test("works before the epoch", () => {
    expect(at("1969-12-31T23:00:00Z").day).toBe(3);
  });
});

describe("inWindow", () => {
  const overnight = { days: [1, 2, 3, 4, 5], startHour: 17, endHour: 9 };
  const weekend = { days: [0, 6], startHour: 0, endHour: 24 };
  const office = { startHour: 9, endHour: 17 };

  test("start > end wraps past midnight on the moment's own day", () => {
    expect(inWindow(overnight, at("2026-11-30T17:00:00Z"))).toBe(true);
    expect(inWindow(overnight, at("2026-11-30T03:00:00Z"))).toBe(true);
    expect(inWindow(overnight, at("2026-11-30T09:00:00Z"))).toBe(false);
    expect(inWindow(overnight, at("2026-11-30T16:59:59Z"))).toBe(false);
    // Saturday 03:00 is not a listed day: the spec's example covers it with its weekend window.
    expect(inWindow(overnight, at("2026-12-05T03:00:00Z"))).toBe(false);
    expect(inWindow(weekend, at("2026-12-05T03:00:00Z"))).toBe(true);
  });

  test("start < end is the hours between, end excluded; no days means every day", () => {
    expect(inWindow(office, at("2026-12-06T09:00:00Z"))).toBe(true);
    expect(inWindow(office, at("2026-12-06T17:00:00Z"))).toBe(false);
    expect(inWindow(weekend, at("2026-12-06T23:59:59Z"))).toBe(true);
    expect(inWindow(weekend, at("2026-12-07T00:00:00Z"))).toBe(false);
  });
});
