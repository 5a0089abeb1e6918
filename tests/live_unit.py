#!/usr/bin/env python3
# live_unit.py: the parts of live/live.py that need no kernel: reading
# fio's JSON and the guest's counters, the prediction interval, the CPU
# time each phase measured, the verdict of each figure, the order of the
# runs and the choice of cases; the build cache's rule and keys (with
# stand-ins for the kernel's source, tests/live-fake.sh) and mpsim's
# messages in mpsim live.  Run by tests/live.sh (python3 -m unittest).
import contextlib
import io
import math
import os
import re
import select
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import types
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "live"))
import live  # noqa: E402


def fio_dir(ios, iops, mean_ns, p99_ns=None):
    d = dict(total_ios=ios, iops=iops, lat_ns=dict(mean=mean_ns))
    if p99_ns is not None:
        d["lat_ns"]["percentile"] = {"99.000000": p99_ns}
    return d


class FioPhase(unittest.TestCase):
    def test_one_direction(self):
        job = dict(read=fio_dir(4000, 2000.0, 300000.0, 900000), write=fio_dir(0, 0.0, 0.0),
                   job_runtime=2000)
        ph = live.fio_phase(job)
        self.assertEqual(ph["iops"], 2000.0)
        self.assertAlmostEqual(ph["mean"], 300.0)
        self.assertAlmostEqual(ph["p99"], 900.0)
        self.assertAlmostEqual(ph["rt"], 2.0)

    def test_two_directions_weigh_the_mean_and_have_no_p99(self):
        job = dict(read=fio_dir(300, 150.0, 1000000.0, 5000000),
                   write=fio_dir(100, 50.0, 3000000.0, 7000000), job_runtime=2000)
        ph = live.fio_phase(job)
        self.assertEqual(ph["iops"], 200.0)
        # (300 * 1000 + 100 * 3000) / 400 us
        self.assertAlmostEqual(ph["mean"], 1500.0)
        self.assertIsNone(ph["p99"])

    def test_the_tail_from_the_99_9th_percentile_on(self):
        d = fio_dir(4000, 2000.0, 300000.0, 900000)
        d["lat_ns"]["percentile"].update({"99.500000": 1000000, "99.900000": 2500000,
                                          "99.950000": 3000000, "99.990000": 4500000})
        ph = live.fio_phase(dict(read=d, job_runtime=2000))
        self.assertEqual(ph["tail"], {99.9: 2500.0, 99.95: 3000.0, 99.99: 4500.0})

    def test_no_io(self):
        ph = live.fio_phase(dict(read=fio_dir(0, 0.0, 0.0), job_runtime=1000))
        self.assertEqual(ph["iops"], 0.0)
        self.assertIsNone(ph["mean"])


def read_stat_text(text):
    """live.read_stat of a stat file holding text."""
    with tempfile.NamedTemporaryFile("w", suffix=".stat", delete=False) as f:
        f.write(text)
    try:
        return live.read_stat(f.name)
    finally:
        os.unlink(f.name)


class ReadStat(unittest.TestCase):
    def test_reads_plus_writes_per_tag(self):
        # fields 1 and 5 the I/Os, 4 and 8 their ticks (ms)
        snaps, order = read_stat_text(
            "-- 0:0:0\n"
            "p0 10 0 80 170 5 0 40 30 0 0 0 0 0 0 0 0 0\n"
            "p1 3 0 24 90 0 0 0 0 0 0 0 0 0 0 0 0 0\n"
            "-- end\n"
            "p0 110 0 880 2170 7 0 56 50 0 0 0 0 0 0 0 0 0\n"
            "p1 4 0 32 120 0 0 0 0 0 0 0 0 0 0 0 0 0\n")
        self.assertEqual(order, ["0:0:0", "end"])
        self.assertEqual(snaps["0:0:0"], {"p0": 15, "p1": 3, "p0.ticks": 200, "p1.ticks": 90})
        self.assertEqual(snaps["end"], {"p0": 117, "p1": 4, "p0.ticks": 2220, "p1.ticks": 120})

    def test_jiffies_per_bio_from_an_mpsim_trace(self):
        # job 1's I/Os only, map to end_io in whole jiffies (HZ=100): io 2
        # mapped 3.6 s + 1 ms, ended 3.6 s + 20 ms: 2 jiffies; io 3 mapped
        # at 9.9 ms, ended at 20 ms: 2; io 4 on b: 3
        tr = "\n".join([
            "0.000000000 run selector=st",
            "0.000100000 submit io=1 job=0 dir=read bytes=4096",
            "0.000100000 map io=1 now=3600000100000 path=a | a: inflight=0",
            "0.000200000 submit io=2 job=1 dir=read bytes=4096",
            "0.000200000 map io=2 now=3600001000000 path=a | a: inflight=1",
            "0.000300000 submit io=3 job=1 dir=read bytes=4096",
            "0.000300000 map io=3 now=3600009900000 path=a | a: inflight=2",
            "0.000400000 submit io=4 job=1 dir=read bytes=4096",
            "0.000400000 map io=4 now=3600000400000 path=b | a: inflight=2",
            "0.020000000 end_io io=1 path=a error=0 start=0 now=3600020000000 in_flight_size=0",
            "0.020000000 end_io io=2 path=a error=0 start=0 now=3600020000000 in_flight_size=0",
            "0.020000000 end_io io=3 path=a error=0 start=0 now=3600020000000 in_flight_size=0",
            "0.030000000 end_io io=4 path=b error=0 start=0 now=3600030000000 in_flight_size=0",
            ""])
        with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
            f.write(tr)
        try:
            self.assertEqual(live.trace_jiffies(f.name, {1}), {"a": 2.0, "b": 3.0})
            self.assertEqual(live.trace_jiffies(f.name, {0}), {"a": 2.0})
            self.assertEqual(live.trace_jiffies(f.name, {0, 1}), {"a": 2.0, "b": 3.0})
        finally:
            os.unlink(f.name)

    def test_uptime_is_busy_and_all(self):
        # /proc/uptime: up 100.00 s, idle 90.00 (one CPU): busy 10 s of 100
        snaps, _ = read_stat_text(
            "-- 0:0:0\nuptime 100.00 90.00\np0 10 0 80 0 5 0 40 0 0 0 0 0 0 0 0 0 0\n"
            "-- end\nuptime 102.00 91.50\np0 110 0 880 0 7 0 56 0 0 0 0 0 0 0 0 0 0\n")
        self.assertEqual(snaps["0:0:0"]["cpu"], (10.0, 100.0))
        self.assertAlmostEqual(snaps["end"]["cpu"][0], 10.5)
        self.assertEqual(snaps["end"]["p0"], 117)

    def test_phase_busy_less_one_snapshot(self):
        # a window of 2.5 s, 0.7 busy, of which one snapshot's process
        # took 0.1 s, all busy: 0.6 of 2.4
        self.assertAlmostEqual(live.phase_busy((10.0, 100.0), (10.7, 102.5), (0.1, 0.1)), 0.25)
        self.assertAlmostEqual(live.phase_busy((10.0, 100.0), (10.7, 102.5), (0.0, 0.0)), 0.28)
        # within the readings' resolution of 0 or 1: clipped
        self.assertEqual(live.phase_busy((10.0, 100.0), (10.09, 102.0), (0.1, 0.1)), 0.0)
        # past it: unknown, not 0
        self.assertIsNone(live.phase_busy((10.0, 100.0), (10.02, 102.0), (0.1, 0.1)))
        self.assertIsNone(live.phase_busy((10.0, 100.0), (10.1, 100.1), (0.1, 0.1)))

    def test_iowait_is_not_busy(self):
        # up 100.00 s, idle 60.00, and /proc/stat's iowait 3000 (USER_HZ,
        # 30 s: a psync job asleep in io_schedule): busy 10 s of 100
        snaps, _ = read_stat_text(
            "-- 0:0:0\nuptime 100.00 60.00\n"
            "stat cpu  500 0 400 6000 3000 0 100 0 0 0\n"
            "p0 10 0 80 0 5 0 40 0 0 0 0 0 0 0 0 0 0\n")
        self.assertAlmostEqual(snaps["0:0:0"]["cpu"][0], 10.0)
        self.assertEqual(snaps["0:0:0"]["cpu"][1], 100.0)
        self.assertEqual(snaps["0:0:0"]["p0"], 15)


class Interval(unittest.TestCase):
    def test_three_runs(self):
        # mean 2, sd 1, t(0.975, 2) = 4.303, sqrt(1 + 1/3)
        lo, hi = live.interval([1.0, 2.0, 3.0])
        k = 4.303 * (4.0 / 3.0) ** 0.5
        self.assertAlmostEqual(lo, 2.0 - k)
        self.assertAlmostEqual(hi, 2.0 + k)

    def test_five_runs_use_t_of_four_degrees(self):
        lo, hi = live.interval([10.0, 12.0, 14.0, 16.0, 18.0])
        sd = (40.0 / 4) ** 0.5
        k = 2.776 * (1.2 ** 0.5)
        self.assertAlmostEqual(hi - 14.0, k * sd)
        self.assertAlmostEqual(14.0 - lo, k * sd)

    def test_six_runs_of_a_second_look_are_2_78_sd(self):
        # the second look's six runs: t(0.975, 5) = 2.571, sqrt(1 + 1/6),
        # 2.777 sd (docs/live.md and the note under the table say 2.78)
        vals = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]
        lo, hi = live.interval(vals)
        sd = (17.5 / 5) ** 0.5
        self.assertAlmostEqual((hi - 3.5) / sd, 2.571 * (7.0 / 6.0) ** 0.5)
        self.assertEqual(round((hi - 3.5) / sd, 2), 2.78)
        self.assertAlmostEqual(3.5 - lo, hi - 3.5)

    def test_one_run_is_its_value(self):
        self.assertEqual(live.interval([7.0]), (7.0, 7.0))

    def test_equal_runs_have_no_width(self):
        self.assertEqual(live.interval([0.5, 0.5, 0.5]), (0.5, 0.5))


def run(iops, mean):
    return dict(iops=iops, mean=mean)


def cphase(iops, mean, n, cpu_s, busy=1.0, slat=0.0):
    return dict(iops=iops, mean=mean, n=n, cpu_s=cpu_s, busy=busy, slat=slat)


class Costs(unittest.TestCase):
    """phase_costs: each run's CPU time per I/O in each phase, measured
    there, and fio's loop outside its latency from the lowest depth."""

    def case(self, depths):
        return types.SimpleNamespace(name="c", njobs=len(depths), depths=depths,
                                     jobnames=["qd%d" % d for d in depths])

    def test_each_run_and_phase_its_own(self):
        # run 1: depth 1 at 2000 IOPS and 300 us, 0.5 s of CPU for 1000
        # I/Os: 500 us per I/O, 200 of it outside the latency; depth 16:
        # 0.2 s for 1000 I/Os, 200 us, the same loop
        kr = [[cphase(2000.0, 300.0, 1000, 0.5), cphase(2500.0, 6250.0, 1000, 0.2)],
              [cphase(1000.0, 700.0, 500, 0.2), cphase(2000.0, 7000.0, 800, 0.32)]]
        got = live.phase_costs(self.case([1, 16]), kr)
        self.assertEqual(len(got), 2)
        for (s, c, t), want in zip(got[0], ((300.0, 200.0, 500.0), (0.0, 200.0, 200.0))):
            self.assertAlmostEqual(s, want[0])
            self.assertAlmostEqual(c, want[1])
            self.assertAlmostEqual(t, want[2])
        # run 2: 400 us per I/O, of which 300 outside (1000 - 700); at
        # depth 16 400 us, the same loop
        self.assertEqual([tuple(round(x, 6) for x in ph) for ph in got[1]],
                         [(100.0, 300.0, 400.0), (100.0, 300.0, 400.0)])

    def test_the_loop_is_littles_law_at_the_lowest_depth(self):
        # depth 4 alone: 4/2000 s a cycle, 1800 us of it the latency
        got = live.phase_costs(self.case([4]), [[cphase(2000.0, 1800.0, 1000, 0.45)]])
        self.assertEqual([tuple(round(x, 6) for x in ph) for ph in got[0]],
                         [(250.0, 200.0, 450.0)])
        # the lowest depth, wherever it lies in the job
        got = live.phase_costs(self.case([16, 1]), [[cphase(2500.0, 6250.0, 1000, 0.2),
                                                     cphase(2000.0, 450.0, 1000, 0.5)]])
        self.assertAlmostEqual(got[0][0][1], 50.0)

    def test_the_loop_is_kept_within_the_cpu_time(self):
        # a loop longer than the phase's CPU time (the host took the CPU
        # from the guest): all of it outside the latency, none negative
        got = live.phase_costs(self.case([1, 16]), [[cphase(1000.0, 200.0, 100, 0.01),
                                                     cphase(2000.0, 8000.0, 100, 0.05)]])
        self.assertEqual([tuple(round(x, 6) for x in ph) for ph in got[0]],
                         [(0.0, 100.0, 100.0), (0.0, 500.0, 500.0)])
        got = live.phase_costs(self.case([1]), [[cphase(1000.0, 1100.0, 100, 0.05)]])
        self.assertEqual(got[0][0], (500.0, 0.0, 500.0))

    def test_a_run_without_its_cpu_time_takes_the_median(self):
        kr = [[cphase(2000.0, 300.0, 1000, t)] for t in (0.5, None, 0.3, 0.4)]
        kr[1][0].pop("cpu_s")
        got = live.phase_costs(self.case([1]), kr)
        self.assertAlmostEqual(got[1][0][2], 400.0)
        for bad in ([[cphase(2000.0, 300.0, 1000, None)]], [[cphase(0.0, None, 0, 0.5)]]):
            if bad[0][0]["cpu_s"] is None:
                del bad[0][0]["cpu_s"]
            with self.assertRaises(ValueError):
                live.phase_costs(self.case([1]), bad)

    def test_a_phase_that_idled_takes_fios_own_figures(self):
        # 15 I/Os in 0.3 s of CPU time (20 ms each: the guest's
        # background): fio's figures, 40 + 300 us, are under half of it,
        # so mpsim gets fio's loop (300 us) and submission latency (40)
        kr = [[cphase(8.0, 124700.0, 15, 0.3, busy=0.15, slat=40.0)]]
        self.assertEqual(live.phase_costs(self.case([1]), kr)[0][0], (40.0, 300.0, 340.0))
        # however busy the CPU, short of CPU-bound
        kr = [[cphase(8.0, 124700.0, 15, 0.3, busy=0.6, slat=40.0)]]
        self.assertEqual(live.phase_costs(self.case([1]), kr)[0][0], (40.0, 300.0, 340.0))
        # CPU-bound: its own busy time
        kr = [[cphase(8.0, 124700.0, 15, 0.3, busy=0.97, slat=40.0)]]
        self.assertEqual(live.phase_costs(self.case([1]), kr)[0][0], (19700.0, 300.0, 20000.0))
        # fio's figures half of the busy time or more: its own busy time
        kr = [[cphase(8.0, 124700.0, 1000, 0.5, busy=0.25, slat=40.0)]]
        got = live.phase_costs(self.case([1]), kr)[0][0]
        self.assertEqual(tuple(round(x, 6) for x in got), (200.0, 300.0, 500.0))
        # the median run decides for the phase
        kr = [[cphase(8.0, 124700.0, 15, t, busy=0.15, slat=40.0)] for t in (0.3, 0.005, 0.3)]
        got = live.phase_costs(self.case([1]), kr)
        self.assertEqual((got[0][0], got[2][0]), ((40.0, 300.0, 340.0), (40.0, 300.0, 340.0)))
        # and never more than the busy time per I/O, which bounds it: a
        # loop of 300 us where the CPU was busy 100 us per I/O
        kr = [[cphase(2000.0, 200.0, 4000, 0.4, busy=0.2, slat=80.0)]]
        self.assertEqual(live.phase_costs(self.case([1]), kr)[0][0], (0.0, 100.0, 100.0))

    def test_thinktime_is_not_the_loop(self):
        # 65 I/Os then 25 ms of thinktime: 385 us of it per I/O is taken
        # out of the cycle (the loop is CPU time, the pause is not)
        self.assertAlmostEqual(live.job_think_us([("thinktime", "25ms"),
                                                  ("thinktime_blocks", "65")], "f"), 25000 / 65)
        self.assertEqual(live.job_think_us([("thinktime", "250")], "f"), 250.0)
        self.assertEqual(live.job_think_us([("bs", "4k")], "f"), 0.0)
        with self.assertRaises(live.BadInput):
            live.job_think_us([("thinktime", "2.5ms")], "f")
        c = self.case([1])
        c.think = [400.0]
        got = live.phase_costs(c, [[cphase(1000.0, 300.0, 1000, 0.5)]])
        self.assertEqual(got[0][0], (200.0, 300.0, 500.0))

    def test_the_note_gives_each_run(self):
        c = self.case([1, 16])
        n = live.costs_note(c, [[(300.0, 200.0, 500.0), (0.0, 200.0, 200.0)],
                                [(100.0, 300.0, 400.0), (100.0, 300.0, 400.0)]])
        self.assertIn("qd1 500 (200)/400 (300); qd16 200 (200)/400 (300)", n)

    def test_a_users_own_cpu_model(self):
        self.assertTrue(live.user_cpu(types.SimpleNamespace(opts=["--submit_cpu=10us"])))
        self.assertFalse(live.user_cpu(types.SimpleNamespace(opts=["--delay=1"])))

    def test_stolen_stretches_from_the_tail_at_depth_1(self):
        # m = 160 us; a stretch of exp(2000 us) after every 40000 us of
        # the CPU's hits 160/40000 = 0.4 % of the I/Os, so the latency
        # passes x with probability 0.004 exp(-(x - 160)/2000): the 99.9th
        # percentile at 160 + 2000 ln 4, the 99.95th at 160 + 2000 ln 8,
        # the 99.99th at 160 + 2000 ln 40
        def tail(m):
            return {q: m + 2000.0 * math.log((m / 40000.0) / (1 - q / 100.0))
                    for q in (99.9, 99.95, 99.99)}
        kr = [[dict(iops=3500.0, mean=160.0, tail=tail(160.0))]] * 3
        mu, gap = live.steal_fit(kr, 0)
        self.assertAlmostEqual(mu, 2000.0, places=6)
        self.assertAlmostEqual(gap, 40000.0, places=3)
        self.assertAlmostEqual(live.stolen((mu, gap)), 2000.0 / 42000.0)
        n = live.steal_note("calibrate", (mu, gap))
        self.assertIn("2.00 ms every 40 ms of its work on average (4.8 % of its time)", n)
        self.assertIn("`--steal='exp:2000us every exp:40000us'`", n)
        # runs whose tail is the I/Os' own (no point past the mean, or a
        # tail that does not fall) show none
        flat = [[dict(iops=3500.0, mean=160.0, tail={99.9: 150.0, 99.99: 155.0})]]
        self.assertIsNone(live.steal_fit(flat, 0))
        rising = [[dict(iops=3500.0, mean=160.0, tail={99.9: 900.0, 99.99: 800.0})]]
        self.assertIsNone(live.steal_fit(rising, 0))
        self.assertIn("no stretch stolen", live.steal_note("calibrate", None))
        self.assertEqual(live.stolen(None), 0.0)

    def test_start_later_delays_the_last_phases_jobs_only(self):
        text = "[global]\nbs=4k\n[qd1]\niodepth=1\n[qd4]\nstonewall\n[w]\nrw=write\n"
        got = live.start_later(text, 2, 2500)
        self.assertEqual(got, "[global]\nbs=4k\n[qd1]\niodepth=1\n[qd4]\nstartdelay=2500us\n"
                              "stonewall\n[w]\nstartdelay=2500us\nrw=write\n")
        # and the grid of starts covers one tick of HZ=100, from mpsim's own
        self.assertEqual(live.TICK_GRID[0], 0)
        self.assertTrue(all(0 <= sh < 10000 for sh in live.TICK_GRID))

    def test_a_runtime_ends_in_the_tick_where_fio_truncates_it(self):
        # fio's 2016 ms: the run ended in [2016, 2017) ms, 6 to 7 ms into
        # the tick; around the tick, 9.9 is 0.1 ms from 0
        self.assertEqual(live.tick_gap(2.016, 2.0167), 0.0)
        self.assertAlmostEqual(live.tick_gap(2.016, 2.0185), 1.5)
        self.assertAlmostEqual(live.tick_gap(2.016, 2.0145), 1.5)
        self.assertAlmostEqual(live.tick_gap(2.010, 2.0199), 0.1)
        self.assertAlmostEqual(live.tick_gap(2.019, 2.0201), 0.1)

    def test_each_run_is_set_at_the_start_whose_runtime_ends_as_its_did(self):
        # mpsim's runtimes at the grid's starts, as a phase through a delay
        # gives them: later start, earlier end in the tick
        mrts = [2.0199, 2.0193, 2.0186, 2.0178, 2.0168, 2.0158, 2.0148, 2.0138, 2.0128,
                2.0118]
        picks = live.measured_starts([2.016, 2.018, 2.011], mrts)
        self.assertEqual(picks, [[4], [2], [9]])
        # two starts alike: both
        self.assertEqual(live.measured_starts([2.016], [2.0165, 2.0163, 2.0100]), [[0, 1]])
        # the runtime first: a start just after a tick ended a tick early
        # (2000.1 ms), and one 9.6 ms later ends in the same ms of the tick
        self.assertEqual(live.measured_starts([2.000, 2.010], [2.0001, 2.0196, 2.0104]),
                         [[0], [2]])
        # a run that drained a tick longer than any of mpsim's: the place
        # in the tick alone
        self.assertEqual(live.measured_starts([2.026], [2.0199, 2.0168, 2.0138]), [[1]])
        # the figures: per run, the mean over its starts; then over the runs
        figs = {0: dict(iops=10.0, mean=100.0, p99=None, busy=None, rt=1.0, ios={"a": 4}),
                1: dict(iops=20.0, mean=200.0, p99=None, busy=None, rt=1.0, ios={"a": 8}),
                2: dict(iops=40.0, mean=400.0, p99=None, busy=None, rt=1.0, ios={"a": 16})}
        got = live.at_starts(figs, [[0, 1], [2], [2]])
        self.assertAlmostEqual(got["iops"], (15.0 + 40.0 + 40.0) / 3)
        self.assertAlmostEqual(got["mean"], (150.0 + 400.0 + 400.0) / 3)
        self.assertAlmostEqual(got["ios"]["a"], (6.0 + 16.0 + 16.0) / 3)
        self.assertIsNone(got["p99"])


def case(name="c", paths=("a", "b"), jitter=False, cpu=False, delays=None, mixed=()):
    d = delays or {}
    return types.SimpleNamespace(name=name, njobs=1, jobnames=["qd1"],
                                 paths=[dict(name=p, read=d.get(p, 0), write=d.get(p, 0),
                                             flush=d.get(p, 0)) for p in paths],
                                 jitter=jitter, cpu=cpu, mixed=set(mixed))


def kphase(iops, mean, p99, ios):
    return dict(iops=iops, mean=mean, p99=p99, rt=2.0, ios=ios)


class Verdict(unittest.TestCase):
    KRUNS = [[kphase(100.0, 1000.0, 2000.0, dict(a=150, b=50))],
             [kphase(102.0, 1010.0, 2100.0, dict(a=152, b=52))],
             [kphase(98.0, 990.0, 1900.0, dict(a=148, b=48))]]

    def rows(self, c, m):
        fails, lines = [], []
        live.compare(c, self.KRUNS, [m], fails, lines)
        return fails, {ln.split(" | ")[1]: ln for ln in lines}

    def test_within(self):
        fails, rows = self.rows(case(), kphase(100.0, 1000.0, 2000.0, dict(a=150, b=50)))
        self.assertEqual(fails, [])
        self.assertTrue(rows["IOPS"].endswith("| within |"))
        self.assertTrue(rows["share a"].endswith("| within |"))

    def test_outside_each_figure(self):
        # IOPS interval: 100 +- 4.97 * 2 (+ 0.5 for one I/O in 2 s)
        fails, rows = self.rows(case(), kphase(111.0, 1000.0, 2000.0, dict(a=300, b=10)))
        self.assertIn("**outside**", rows["IOPS"])
        self.assertIn("**outside**", rows["share a"])
        self.assertIn("**outside**", rows["share b"])
        self.assertIn("within", rows["mean us"])
        self.assertEqual(len(fails), 3)
        self.assertTrue(fails[0].startswith("c IOPS: mpsim 111.0, kernel "))

    def test_one_io_widens_the_interval(self):
        # equal runs: the interval is one I/O wide, 1/runtime = 0.5 IOPS
        kr = [[kphase(100.0, 1000.0, 2000.0, dict(a=100, b=100))]] * 3
        for m, ok in ((100.5, True), (100.6, False), (99.5, True), (99.4, False)):
            fails, lines = [], []
            live.compare(case(), kr, [kphase(m, 1000.0, 2000.0, dict(a=100, b=100))], fails, lines)
            self.assertEqual(not fails, ok, m)

    def test_one_bucket_widens_a_p99(self):
        # fio prints a p99 as its bucket's middle: at 29.5 ms a bucket is
        # 2^18 ns wide (64 to each power of two), so runs that all print
        # 29491.2 hold mpsim's 29753.3, the next bucket, and not 30015.4,
        # the one after (boot 8's round-robin over 0 and 20 ms at depth 16)
        self.assertAlmostEqual(live.fio_bucket_us(29491.2), 262.144)
        self.assertAlmostEqual(live.fio_bucket_us(1000.0), 8.192)
        self.assertAlmostEqual(live.fio_bucket_us(0.1), 0.001)
        kr = [[kphase(100.0, 20000.0, 29491.2, dict(a=100, b=100))]] * 3
        for m, ok in ((29753.3, True), (29229.1, True), (30015.4, False), (28966.9, False)):
            fails, lines = [], []
            live.compare(case(), kr, [kphase(100.0, 20000.0, m, dict(a=100, b=100))], fails, lines)
            self.assertEqual(not fails, ok, m)

    def test_the_spread_of_figures_that_print_alike(self):
        # 25/6015, 29/6696 and 28/7540 all print 0.004: their spread, not
        # the printed one of 0, makes the interval (0.0025 to 0.0056)
        kr = [[kphase(3000.0, 20000.0, 40000.0, dict(a=a, b=b))]
              for a, b in ((5990, 25), (6667, 29), (7512, 28))]
        for mb, ok in ((28, True), (40, False)):
            fails, lines = [], []
            live.compare(case(), kr, [kphase(3000.0, 20000.0, 40000.0, dict(a=6125, b=mb))],
                         fails, lines)
            rows = {ln.split(" | ")[1]: ln for ln in lines}
            self.assertEqual("within" in rows["share b"], ok, rows["share b"])
            self.assertIn("| 0.004 0.004 0.004 |", rows["share b"])

    def test_a_cpu_bound_phase_reports_iops_and_mean(self):
        # the CPU busy throughout (median of the runs at 0.95 or more): its
        # IOPS and mean are the host's, reported; its shares checked
        for busy, host in (((0.99, 0.97, 0.93), True), ((0.99, 0.90, 0.93), False)):
            kr = [[dict(r[0], busy=b)] for r, b in zip(self.KRUNS, busy)]
            fails, lines = [], []
            live.compare(case(), kr, [kphase(111.0, 1200.0, 2000.0, dict(a=300, b=10))],
                         fails, lines)
            rows = {ln.split(" | ")[1]: ln for ln in lines}
            self.assertEqual("| host CPU |" in rows["IOPS"], host, busy)
            self.assertEqual("| host CPU |" in rows["mean us"], host, busy)
            self.assertIn("| kernel |", rows["share a"])
            self.assertEqual(sorted(f.split(":")[0] for f in fails),
                         (["c share a", "c share b"] if host else
                          ["c IOPS", "c mean us", "c share a", "c share b"]))
            if host:
                self.assertTrue(rows["IOPS"].endswith("| reported (outside) |"))
        # a run without the measure: not known to be CPU-bound
        self.assertFalse(live.cpu_bound([dict(busy=1.0), dict(busy=None), dict(busy=1.0)]))

    def test_cpu_busy_is_reported_beside_mpsims(self):
        kr = [[dict(r[0], busy=b)] for r, b in zip(self.KRUNS, (0.25, 0.5, 0.75))]
        m = dict(kphase(100.0, 1000.0, 2000.0, dict(a=150, b=50)), busy=0.4)
        per = [[dict(m, busy=b)] for b in (0.3, 0.4, 0.5)]
        fails, lines = [], []
        live.compare(case(), kr, [m], fails, lines, per=per)
        self.assertIn("| c | CPU busy | | 0.25 0.50 0.75 | | 0.30 0.40 0.50 | 0.40 | reported |",
                      lines)
        self.assertEqual(fails, [])

    def test_mpsims_figure_is_the_mean_of_its_runs(self):
        # each run's figure is shown; the verdict is the mean's, 100.0
        per = [[kphase(v, 1000.0, 2000.0, dict(a=150, b=50))] for v in (95.0, 100.0, 105.0)]
        m = live.at_starts({r: per[r][0] for r in range(3)}, [[0], [1], [2]])
        self.assertAlmostEqual(m["iops"], 100.0)
        fails, lines = [], []
        live.compare(case(), self.KRUNS, [m], fails, lines, per=per)
        rows = {ln.split(" | ")[1]: ln for ln in lines}
        self.assertIn("| 95.0 100.0 105.0 | 100.0 | within |", rows["IOPS"])
        self.assertEqual(fails, [])

    def test_the_counts_of_the_table(self):
        kr = [[dict(r[0], busy=0.99)] for r in self.KRUNS]
        fails, lines = [], []
        live.compare(case(jitter=True), kr, [kphase(100.0, 1000.0, 9000.0, dict(a=150, b=50))],
                     fails, lines)
        kinds, tally = live.figure_counts(lines)
        self.assertEqual(kinds, {"kernel", "host CPU", "host timer"})
        self.assertEqual(tally, "5 figures: 2 checked, 2 within, 0 outside; 3 reported "
                                "(2 host CPU, 1 host timer).")
        self.assertIn("`host CPU`: reported", live.set_by_note(kinds))
        self.assertNotIn("`tick pattern`", live.set_by_note(kinds))

    def test_a_diagnostic_case_is_reported_not_checked(self):
        c = case()
        c.diagnostic = True
        fails, lines = [], []
        live.compare(c, self.KRUNS, [kphase(111.0, 1000.0, 2000.0, dict(a=300, b=10))], fails, lines)
        rows = {ln.split(" | ")[1]: ln for ln in lines}
        self.assertEqual(fails, [])
        self.assertTrue(rows["IOPS"].endswith("| reported (outside) |"))
        self.assertIn("| diagnostic |", rows["IOPS"])
        self.assertTrue(rows["mean us"].endswith("| reported (within) |"))

    def test_a_mixed_phase_is_reported_with_its_jiffies(self):
        # mpsim's share 300/310 lies far outside the kernel's 0.74-0.75:
        # out of scope in a phase of mixed=, a failure in any other
        kr = [[dict(r[0], jiffies=dict(a=1.5 + i / 10.0, b=2.5))] for i, r in enumerate(self.KRUNS)]
        m = dict(kphase(111.0, 1000.0, 2000.0, dict(a=300, b=10)), jiffies=dict(a=1.84, b=2.78))
        for mixed, nfails in ((("qd1",), 0), (("qd64",), 3)):
            fails, lines, notes = [], [], []
            live.compare(case(mixed=mixed), kr, [m], fails, lines, mixed=notes)
            rows = {ln.split(" | ")[1]: ln for ln in lines}
            self.assertEqual(len(fails), nfails, mixed)
            if nfails:
                self.assertEqual(notes, [])
                continue
            self.assertTrue(rows["IOPS"].endswith("| reported (outside) |"))
            self.assertIn("| tick pattern |", rows["IOPS"])
            self.assertTrue(rows["mean us"].endswith("| reported (within) |"))
            self.assertEqual(notes, ["c: kernel a 1.50/1.60/1.70 b 2.50/2.50/2.50, mpsim a 1.84 b 2.78"])
            self.assertIn("c: kernel a 1.50/1.60/1.70", live.mixed_note(notes))

    def test_jitter_puts_only_p99_out_of_scope(self):
        fails, rows = self.rows(case(jitter=True), kphase(100.0, 5000.0, 9000.0, dict(a=150, b=50)))
        self.assertIn("| host timer |", rows["p99 us"])
        self.assertTrue(rows["p99 us"].endswith("| reported (outside) |"))
        self.assertEqual([f.split(":")[0] for f in fails], ["c mean us"])

    def test_no_mpsim_figure_is_outside(self):
        fails, lines = [], []
        live.compare(case(paths=("a",)), self.KRUNS, None, fails, lines)
        self.assertEqual(len(fails), 3)


class HostTimerP99(unittest.TestCase):
    """A p99 through a delay may lie past mpsim's by as late as the host
    timer made the jitter cases' p99s, never before it."""

    def verdict(self, depth, kb, mb, kp99=31000.0, mp99=30000.0, late=1500.0):
        c = case(delays=dict(b=20))
        c.depths = [depth]
        # three runs at kp99 exactly: the interval is that value, give or
        # take its bucket of fio's histogram (262 us at 31 ms)
        kr = [[kphase(40.0, 25000.0, kp99, dict(a=80 - n, b=n))] for n in kb]
        fails, lines = [], []
        live.compare(c, kr, [kphase(40.0, 25000.0, mp99, dict(a=80 - mb, b=mb))],
                     fails, lines, None, late=late)
        return fails, {ln.split(" | ")[1]: ln for ln in lines}["p99 us"]

    def test_late_by_no_more_than_measured_at_any_depth(self):
        for depth in (1, 4, 64):
            fails, row = self.verdict(depth, (40, 40, 40), 40)
            self.assertIn("| within (host timer) |", row)
            self.assertEqual(fails, [])

    def test_later_than_measured_is_outside(self):
        # 1000 us late, less one bucket: 738 us
        fails, row = self.verdict(4, (40, 40, 40), 40, late=700.0)
        self.assertIn("**outside**", row)
        self.assertEqual([f.split(":")[0] for f in fails], ["c p99 us"])

    def test_earlier_than_mpsim_is_outside(self):
        # the tick comes late, never early
        fails, row = self.verdict(4, (40, 40, 40), 40, kp99=29000.0)
        self.assertIn("**outside**", row)

    def test_without_a_measurement_it_is_held_to_mpsim(self):
        fails, row = self.verdict(1, (40, 40, 40), 40, late=None)
        self.assertIn("**outside**", row)

    def test_under_one_percent_delayed_on_one_side_has_no_allowance(self):
        fails, row = self.verdict(1, (40, 40, 40), 0)
        self.assertIn("**outside**", row)
        fails, row = self.verdict(1, (40, 0, 40), 40)
        self.assertIn("**outside**", row)

    def test_a_jitter_case_is_reported_and_measures(self):
        c = case(jitter=True, paths=("a",), delays=dict(a=20))
        kr = [[kphase(40.0, 25000.0, v, dict(a=80))] for v in (30500.0, 31000.0, 30000.0)]
        m = [kphase(40.0, 25000.0, 30000.0, dict(a=80))]
        fails, lines = [], []
        live.compare(c, kr, m, fails, lines)
        row = {ln.split(" | ")[1]: ln for ln in lines}["p99 us"]
        self.assertIn("| host timer | 30500.0 31000.0 30000.0 |", row)
        self.assertTrue(row.endswith("| 30000.0 | reported (within) |"))
        self.assertEqual(fails, [])
        self.assertEqual(live.host_late(kr, m), [500.0, 1000.0, 0.0])


class CpuPacedP99(unittest.TestCase):
    """A p99 among the I/Os only UML's CPU paced is reported, not checked."""
    SLOW = dict(b=20)

    def kruns(self, b):
        return [[kphase(2500.0, 5000.0, 11000.0, dict(a=5000 - n, b=n))] for n in b]

    def verdict(self, c, kb, mb):
        fails, lines, scoped = [], [], []
        live.compare(c, self.kruns(kb), [kphase(2500.0, 5000.0, 5000.0, dict(a=5000 - mb, b=mb))],
                     fails, lines, scoped)
        rows = {ln.split(" | ")[1]: ln for ln in lines}
        return fails, rows["p99 us"], scoped

    def test_under_one_percent_delayed_everywhere(self):
        # 29 of 5000 through the 20 ms path: the p99 is a CPU-paced I/O
        fails, row, scoped = self.verdict(case(cpu=True, delays=self.SLOW), (29, 29, 30), 28)
        self.assertIn("| CPU spread |", row)
        self.assertTrue(row.endswith("| reported (outside) |"))
        self.assertEqual(fails, [])
        self.assertEqual(scoped, ["c: kernel 2.20-2.20, mpsim 1.00"])

    def test_one_percent_in_one_kernel_run_is_checked(self):
        # 50 of 5000 is 1 %: that run's p99 is a delayed I/O; the runs'
        # shares (0.58, 0.59, 1.0 %) are close enough that their interval
        # holds 1 %, so it is the knife's edge below; with every run at
        # 2 % it does not, and the p99 is checked
        fails, row, scoped = self.verdict(case(cpu=True, delays=self.SLOW), (29, 50, 30), 28)
        self.assertIn("| CPU spread |", row)
        self.assertTrue(row.endswith("| reported (outside) |"))
        fails, row, scoped = self.verdict(case(cpu=True, delays=self.SLOW), (100, 100, 101), 28)
        self.assertIn("**outside**", row)
        self.assertIn("c p99 us", [f.split(":")[0] for f in fails])
        self.assertEqual(scoped, [])

    def test_at_the_knifes_edge(self):
        # 67 of 6168 (1.09 %) in the kernel's runs, 67 of 7240 (0.93 %) in
        # mpsim: the kernel's interval for the share holds 1 % and mpsim's
        def kr(tots):
            return [[kphase(3000.0, 5000.0, 33000.0, dict(a=t - 67, b=67))] for t in tots]
        c = case(cpu=True, delays=self.SLOW)
        for mtot, scoped in ((7240, True), (4000, False)):
            fails, lines = [], []
            live.compare(c, kr((6168, 6619, 5706)),
                         [kphase(3000.0, 5000.0, 4200.0, dict(a=mtot - 67, b=67))], fails, lines)
            row = {ln.split(" | ")[1]: ln for ln in lines}["p99 us"]
            self.assertEqual("reported" in row, scoped, row)
        # all at 1.5 % or more: 1 % is outside the kernel's interval
        fails, lines = [], []
        live.compare(c, kr((4400, 4450, 4500)),
                     [kphase(3000.0, 5000.0, 4200.0, dict(a=7173, b=67))], fails, lines)
        self.assertIn("**outside**", {ln.split(" | ")[1]: ln for ln in lines}["p99 us"])

    def test_one_percent_in_mpsim_is_checked(self):
        fails, row, _ = self.verdict(case(cpu=True, delays=self.SLOW), (29, 29, 30), 50)
        self.assertIn("**outside**", row)

    def test_only_cases_given_the_cpu_time(self):
        fails, row, _ = self.verdict(case(cpu=False, delays=self.SLOW), (29, 29, 30), 28)
        self.assertIn("**outside**", row)

    def test_no_delayed_path_at_all(self):
        fails, row, _ = self.verdict(case(cpu=True), (0, 0, 0), 0)
        self.assertIn("reported", row)
        self.assertEqual(fails, [])

    def test_only_the_p99(self):
        c = case(cpu=True, delays=self.SLOW)
        fails, lines = [], []
        live.compare(c, self.kruns((29, 29, 30)), [kphase(3000.0, 9000.0, 5000.0, dict(a=4972, b=28))],
                     fails, lines)
        self.assertEqual(sorted(f.split(":")[0] for f in fails), ["c IOPS", "c mean us"])

    def test_delayed_share(self):
        c = case(delays=self.SLOW)
        self.assertAlmostEqual(live.delayed_share(c, dict(a=990, b=10)), 0.01)
        self.assertEqual(live.delayed_share(c, dict(a=0, b=0)), 1.0)
        self.assertEqual(live.delayed_share(case(), dict(a=5, b=5)), 0.0)

    def test_each_phases_own_tail(self):
        kr = [kphase(3000.0, 5000.0, 11000.0, {}), kphase(3000.0, 5000.0, 10000.0, {})]
        got = live.spread_of("c/qd16", kr, kphase(3000.0, 5000.0, 5050.0, {}))
        self.assertEqual(got, "c/qd16: kernel 2.00-2.20, mpsim 1.01")
        self.assertEqual(live.spread_of("c", kr, None), "c: kernel 2.00-2.20, mpsim -")
        self.assertIn("c/qd16: kernel 2.00-2.20, mpsim 1.01", live.cpu_note([got]))


class Grid(unittest.TestCase):
    HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "live")

    def parse(self, text):
        # the grid's paths made absolute: it is written outside live/
        text = text.replace("cases/", self.HERE + "/cases/").replace("jobs/", self.HERE + "/jobs/")
        with tempfile.TemporaryDirectory() as d:
            g = os.path.join(d, "grid")
            with open(g, "w") as f:
                f.write(text)
            return live.parse_grid(g, 3)

    def test_flags_and_options(self):
        cs = self.parse("r cases/delay.ini jobs/psync-randread.fio --delay=1 jitter repeats=5\n"
                        "m cases/mp-round-robin.ini jobs/depths.fio --path.a.delay=0 diagnostic\n")
        self.assertEqual([(c.jitter, c.diagnostic, c.repeats) for c in cs],
                         [(True, False, 5), (False, True, 3)])
        # the flags are not passed to mpsim as options
        self.assertEqual([c.opts for c in cs], [["--delay=1"], ["--path.a.delay=0"]])

    def test_a_word_that_is_neither_flag_nor_option(self):
        # the calibrations' flags of older grids too: every case measures
        # its own CPU time now
        for word in ("cpu", "calibrate", "wake=wake-aio", "jiter"):
            with self.assertRaises(live.BadInput, msg=word):
                self.parse("m cases/mp-round-robin.ini jobs/depths.fio %s\n" % word)

    def test_mixed_names_phases_of_the_job(self):
        cs = self.parse("m cases/mp-round-robin.ini jobs/depths.fio mixed=qd16,qd64\n")
        self.assertEqual(cs[0].mixed, {"qd16", "qd64"})
        self.assertEqual(cs[0].opts, [])
        with self.assertRaises(live.BadInput):
            self.parse("m cases/mp-round-robin.ini jobs/depths.fio mixed=qd32\n")

    def test_the_projects_grid(self):
        cs = live.parse_grid(os.path.join(self.HERE, "grid"), 3)
        # the dm-delay-alone cases, one I/O at a time, measure the host
        # timer's lateness
        psync = [c for c in cs if c.job and "psync" in c.job]
        self.assertTrue(psync)
        self.assertTrue(all(c.jitter for c in psync))
        # the tick pattern out of scope only where the kernel mixes two:
        # the selectors that weigh in-flight I/O over 2 and 20 ms at depth 64
        self.assertEqual({c.name: c.mixed for c in cs if c.mixed},
                         {n: {"qd64"} for n in ("ql-2-20", "st-2-20", "hst-2-20")})
        # every case runs three times
        self.assertEqual({c.repeats for c in cs}, {3})


class Order(unittest.TestCase):
    def test_round_by_round(self):
        cs = [types.SimpleNamespace(repeats=5), types.SimpleNamespace(repeats=3),
              types.SimpleNamespace(repeats=3)]
        o = live.round_order(cs, [0, 1, 2])
        self.assertEqual(o[:6], [(0, 0), (1, 0), (2, 0), (0, 1), (1, 1), (2, 1)])
        self.assertEqual(o[-2:], [(0, 3), (0, 4)])
        self.assertEqual(len(o), 11)

    def test_runs_in_turn_over_the_boots(self):
        # run r in boot r mod 3: a 5-run case in boots 1, 2, 3, 1, 2
        cs = [types.SimpleNamespace(repeats=5), types.SimpleNamespace(repeats=3)]
        b = live.boot_runs(cs, [0, 1], 3)
        self.assertEqual(b, [[(0, 0), (1, 0), (0, 3)], [(0, 1), (1, 1), (0, 4)],
                             [(0, 2), (1, 2)]])
        self.assertEqual(live.boot_runs(cs, [0, 1], 1), [live.round_order(cs, [0, 1])])


class Select(unittest.TestCase):
    def grid(self):
        return [types.SimpleNamespace(name=n) for n in ("read-1ms", "hst-2-20", "st-2-20", "plain")]

    def test_the_cases_named_in_the_grids_order(self):
        got = [c.name for c in live.select_cases(self.grid(), "st-2-20,hst-*")]
        self.assertEqual(got, ["hst-2-20", "st-2-20"])

    def test_a_pattern_matching_nothing_is_refused(self):
        with self.assertRaises(live.BadInput):
            live.select_cases(self.grid(), "hst-*,nope")
        with self.assertRaises(live.BadInput):
            live.select_cases(self.grid(), "hst-*,")


class Iodepth(unittest.TestCase):
    def test_last_wins_default_one(self):
        self.assertEqual(live.job_iodepth([("rw", "read")], "f"), 1)
        self.assertEqual(live.job_iodepth([("iodepth", "4"), ("iodepth", "16")], "f"), 16)
        with self.assertRaises(live.BadInput):
            live.job_iodepth([("iodepth", "x")], "f")

    def test_the_grids_jobs(self):
        here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "live", "jobs")
        with open(os.path.join(here, "depths.fio")) as f:
            jobs = live.fio_jobs(f.read(), "depths.fio")
        self.assertEqual([live.job_iodepth(o, "depths.fio") for _, o, _ in jobs], [1, 4, 16, 64])


class GuestSnapshots(unittest.TestCase):
    """Where the guest takes the counters and /proc/uptime that bound a
    phase: at its start and, for a phase of one job, at its end, before
    fio sets up the next; a case's loads snapshot before they reload."""

    def test_each_phase_bounded_by_its_own_snapshots(self):
        here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "live")
        c = live.Case("rr", os.path.join(here, "cases", "mp-round-robin.ini"),
                      os.path.join(here, "jobs", "depths.fio"),
                      ["--path.a.delay=0", "--path.b.delay=0"], 1)
        text = c.guest_jobs(3, 1, "G", "R", "L")
        pre = re.findall(r"^exec_prerun=sh G R (\w+) (\S+)$", text, re.M)
        post = re.findall(r"^exec_postrun=sh G R snap (\S+)$", text, re.M)
        self.assertEqual(pre, [("load", "L"), ("snap", "3:1:1"), ("snap", "3:1:2"), ("snap", "3:1:3")])
        self.assertEqual(post, ["e3:1:0", "e3:1:1", "e3:1:2", "e3:1:3"])
        load = c.load_script(3, 1, "/out").splitlines()
        self.assertEqual(load[0], "snap pre-3:1")
        self.assertEqual(load[-1], "snap 3:1:0")


TESTS = os.path.dirname(os.path.abspath(__file__))
TWO_PATHS = """[multipath]
table = 0 65536 multipath 2 queue_mode bio 0 1 1 service-time 0 2 2 a 1 1 b 1 1
[path a]
service = sync
delay = 2
[path b]
service = sync
delay = 20
[r]
rw = randread
iodepth = 4
runtime = 2s
"""


class Scratch(unittest.TestCase):
    """A scratch directory of the test's (mode 0700) and the environment
    as it was, both restored after each test."""

    ENV = ("XDG_CACHE_HOME", "HOME", "TMPDIR", "LIVE_BUILD", "MPSIM", "LINUX_SOURCE",
           "UML_CONFIG", "UML_RELEASE", "FAKE_LOG")

    def setUp(self):
        self.tmp = os.path.realpath(tempfile.mkdtemp())
        self.env = {k: os.environ.get(k) for k in self.ENV}
        for k in self.ENV:
            os.environ.pop(k, None)
        self.cwd = os.getcwd()

    def tearDown(self):
        os.chdir(self.cwd)
        for k, v in self.env.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
        shutil.rmtree(self.tmp, ignore_errors=True)

    def path(self, *names):
        return os.path.join(self.tmp, *names)

    def refused(self, fn, *args):
        """fn(*args) refused: status 2 and one "mpsim: live: " line, returned."""
        err = io.StringIO()
        with contextlib.redirect_stderr(err), self.assertRaises(SystemExit) as cm:
            fn(*args)
        self.assertEqual(cm.exception.code, 2)
        lines = err.getvalue().splitlines()
        self.assertEqual(len(lines), 1, lines)
        self.assertTrue(lines[0].startswith("mpsim: live: "), lines[0])
        return lines[0]

    def mode(self, *names):
        return stat.S_IMODE(os.lstat(self.path(*names)).st_mode)


class BuildCache(Scratch):
    """The build directory and what is kept in it: directories of ours
    alone, mode 0700, checked with lstat (no link followed), in
    directories no other user can write; anything else refused, one line
    and status 2, before anything is built or run."""

    HINT = "set XDG_CACHE_HOME or LIVE_BUILD to a directory of yours"

    def default(self):
        return live.build_dir(live.cache_dir(), 2, self.HINT)

    def test_without_home_a_directory_of_our_uid(self):
        os.environ["TMPDIR"] = self.tmp
        os.environ["XDG_CACHE_HOME"] = "relative/is/unset"
        mine = "mpsim-%d" % os.getuid()
        self.assertEqual(live.cache_dir(), self.path(mine, "live"))
        self.assertEqual(self.default(), self.path(mine, "live"))
        for d in ((mine,), (mine, "live"), (mine, "live", "modules"), (mine, "live", "uml-tmp")):
            self.assertEqual(self.mode(*d), 0o700, d)

    def test_xdg_then_home(self):
        os.environ["HOME"] = self.path("home")
        self.assertEqual(live.cache_dir(), self.path("home", ".cache", "mpsim", "live"))
        os.environ["XDG_CACHE_HOME"] = self.path("xdg")
        self.assertEqual(self.default(), self.path("xdg", "mpsim", "live"))
        self.assertEqual(self.mode("xdg"), 0o700)

    def test_a_link_in_place_of_a_cache_directory_is_refused(self):
        os.environ["TMPDIR"] = self.tmp
        os.mkdir(self.path("elsewhere"), 0o700)
        os.symlink(self.path("elsewhere"), self.path("mpsim-%d" % os.getuid()))
        msg = self.refused(self.default)
        self.assertIn("mpsim-%d: the build cache is a symbolic link: refused (%s)" % (os.getuid(), self.HINT), msg)
        self.assertEqual(os.listdir(self.path("elsewhere")), [])
        os.unlink(self.path("mpsim-%d" % os.getuid()))
        os.makedirs(self.path("mpsim-%d" % os.getuid()), 0o700)
        os.symlink(self.path("elsewhere"), self.path("mpsim-%d" % os.getuid(), "live"))
        self.assertIn("live: the build cache is a symbolic link", self.refused(self.default))

    def test_a_cache_others_can_write_is_refused_one_they_can_read_made_private(self):
        os.environ["XDG_CACHE_HOME"] = self.tmp
        os.mkdir(self.path("mpsim"))
        os.chmod(self.path("mpsim"), 0o777)
        self.assertIn("mpsim: the build cache is writable by others", self.refused(self.default))
        os.chmod(self.path("mpsim"), 0o755)
        self.default()
        self.assertEqual(self.mode("mpsim"), 0o700)

    def test_a_directory_above_that_others_can_write(self):
        os.mkdir(self.path("open"))
        os.chmod(self.path("open"), 0o777)
        os.environ["XDG_CACHE_HOME"] = self.path("open", "cache")
        self.assertIn("another user can write %s, which holds the build cache" % self.path("open"),
                      self.refused(self.default))
        self.assertFalse(os.path.exists(self.path("open", "cache")))
        # sticky, as /tmp is: no one can take another's name there
        os.chmod(self.path("open"), 0o1777)
        self.assertEqual(self.default(), self.path("open", "cache", "mpsim", "live"))

    def test_the_links_above_are_resolved_once(self):
        os.mkdir(self.path("real"), 0o700)
        os.symlink(self.path("real"), self.path("link"))
        os.environ["LIVE_BUILD"] = self.path("link", "live")
        self.assertEqual(self.default(), self.path("real", "live"))

    def test_what_the_harness_keeps_there_must_be_ours_and_no_link(self):
        os.environ["LIVE_BUILD"] = self.path("b")
        os.mkdir(self.path("elsewhere"), 0o700)
        for d in live.BUILD_DIRS:
            build = self.default()
            shutil.rmtree(os.path.join(build, d), ignore_errors=True)
            os.symlink(self.path("elsewhere"), os.path.join(build, d))
            self.assertIn("b/%s: a symbolic link, in the build cache: refused (remove it)" % d,
                          self.refused(self.default))
            os.unlink(os.path.join(build, d))
        self.default()
        self.assertEqual(os.listdir(self.path("elsewhere")), [])
        # a module the guest would load: a file of ours, not a link
        os.symlink(self.path("elsewhere"), self.path("b", "modules", "x.ko"))
        self.assertIn("x.ko: a symbolic link", self.refused(live.private_entry,
                                                            self.path("b", "modules", "x.ko"), False))

    def test_make_live_checks_build_live_in_a_clone_of_ours(self):
        """LIVE_BUILD=build/live, as make live-check gives it, from the
        top of a clone of ours, its build/ made by make (mode 0755)."""
        os.makedirs(self.path("clone", "build"))
        os.chmod(self.path("clone", "build"), 0o755)
        os.chdir(self.path("clone"))
        os.environ["LIVE_BUILD"] = "build/live"
        self.assertEqual(live.build_dir("build/live", 1, "x"), self.path("clone", "build", "live"))
        self.assertEqual(self.mode("clone", "build", "live"), 0o700)
        self.assertEqual(self.mode("clone", "build"), 0o755)

    def test_this_clones_build_directory(self):
        """The same for this tree, where it is ours: the rule takes it."""
        top = os.path.realpath(os.path.join(TESTS, ".."))
        if os.stat(top).st_uid != os.geteuid() or not os.path.isdir(os.path.join(top, "build")):
            self.skipTest("not a built clone of ours")
        name = os.path.basename(self.tmp)
        try:
            got = live.private_dir(os.path.join(top, "build", name), 1, "x")
            self.assertEqual(got, os.path.join(top, "build", name))
        finally:
            os.rmdir(os.path.join(top, "build", name))


class BuildModules(Scratch):
    """build-module.sh on stand-ins for the kernel's source and config
    (tests/live-fake.sh): the tree and each module are used again only
    when a record of ours holds the key of the inputs that made them;
    what another run left (a marker, a Makefile, a module, a link) is
    made anew, never run or loaded."""

    def setUp(self):
        super().setUp()
        subprocess.run(["sh", os.path.join(TESTS, "live-fake.sh"), self.tmp], check=True)
        os.environ.update(LINUX_SOURCE=self.path("linux-source-6.1.tar.xz"),
                          UML_CONFIG=self.path("config.gz"), UML_RELEASE="6.1.0-test",
                          FAKE_LOG=self.path("make.log"), LIVE_BUILD=self.path("b"))
        self.src = self.path("my-sel.c")
        with open(self.src, "w") as f:
            f.write("/* mine */\n")

    def build(self, sources=None):
        """build_modules on the build directory: the targets the stand-in
        tree's make made, and the script's messages."""
        build = live.build_dir(None, 1, "x")
        open(self.path("make.log"), "w").close()
        err = self.path("stderr")
        saved = os.dup(2)
        try:
            with open(err, "w") as f:
                os.dup2(f.fileno(), 2)
            live.build_modules(build, [self.src] if sources is None else sources)
        finally:
            os.dup2(saved, 2)
            os.close(saved)
        with open(self.path("make.log")) as f, open(err) as e:
            return f.read().split("\n")[:-1], e.read()

    def ko(self, name):
        with open(self.path("b", "modules", name + ".ko")) as f:
            return f.read()

    def test_built_once_then_kept_until_an_input_changes(self):
        made, _ = self.build()
        self.assertEqual(made, ["olddefconfig", "modules_prepare", "modules mod-dm-historical-service-time",
                                "modules mod-dm-io-affinity", "modules mod-live_my_sel"])
        self.assertEqual(self.ko("live_my_sel"), "/* mine */\n")
        self.assertEqual(self.ko("dm-io-affinity"), "/* ioa */\n")
        self.assertEqual(self.build()[0], [])
        with open(self.src, "a") as f:
            f.write("/* changed */\n")
        self.assertEqual(self.build()[0], ["modules mod-live_my_sel"])
        # another release, config or tarball is another tree
        os.environ["UML_RELEASE"] = "6.1.0-other"
        self.assertEqual(self.build()[0][:2], ["olddefconfig", "modules_prepare"])

    def plant_tree(self, key=None):
        """A prepared tree as an earlier harness (or another user) left
        it: its markers, and a Makefile that leaves ran behind."""
        tree = self.path("b", "linux-source-6.1")
        os.makedirs(tree, 0o700)
        for m in (".mpsim-unpacked", ".mpsim-prepared-6.1.0-test"):
            open(os.path.join(tree, m), "w").close()
        with open(os.path.join(tree, "Makefile"), "w") as f:
            f.write("%%:\n\ttouch %s\n" % self.path("ran"))
        if key is not None:
            with open(tree + ".key", "w") as f:
                f.write(key + "\n")

    def test_a_planted_marker_and_makefile_are_never_run(self):
        self.plant_tree()
        made, err = self.build()
        self.assertFalse(os.path.exists(self.path("ran")))
        self.assertIn("unpacking", err)
        self.assertEqual(made[:2], ["olddefconfig", "modules_prepare"])
        self.assertEqual(self.ko("live_my_sel"), "/* mine */\n")

    def test_a_record_of_other_inputs_is_not_taken(self):
        self.plant_tree(key="0" * 64)
        self.build()
        self.assertFalse(os.path.exists(self.path("ran")))

    def test_a_planted_module_is_built_anew_never_loaded(self):
        self.build()
        mods = self.path("b", "modules")
        # as the earlier harness kept it: the module and its source's copy
        with open(os.path.join(mods, "live_my_sel.ko"), "w") as f:
            f.write("planted\n")
        os.unlink(os.path.join(mods, "live_my_sel.key"))
        # a link to a module elsewhere, under its record
        with open(self.path("evil.ko"), "w") as f:
            f.write("planted\n")
        os.unlink(os.path.join(mods, "dm-io-affinity.ko"))
        os.symlink(self.path("evil.ko"), os.path.join(mods, "dm-io-affinity.ko"))
        made, _ = self.build()
        self.assertEqual(made, ["modules mod-dm-io-affinity", "modules mod-live_my_sel"])
        self.assertEqual(self.ko("live_my_sel"), "/* mine */\n")
        self.assertFalse(os.path.islink(os.path.join(mods, "dm-io-affinity.ko")))
        self.assertEqual(self.ko("dm-io-affinity"), "/* ioa */\n")
        with open(self.path("evil.ko")) as f:
            self.assertEqual(f.read(), "planted\n")

    def test_a_link_for_modules_is_refused_by_the_script_too(self):
        os.makedirs(self.path("b"), 0o700)
        os.mkdir(self.path("elsewhere"), 0o700)
        os.symlink(self.path("elsewhere"), self.path("b", "modules"))
        r = subprocess.run(["sh", os.path.join(TESTS, "..", "live", "build-module.sh"), self.path("b")],
                           capture_output=True, text=True)
        self.assertEqual(r.returncode, 2)
        self.assertEqual(r.stderr, "mpsim: live: %s: not a directory of ours alone: refused (remove it)\n"
                         % self.path("b", "modules"))
        self.assertEqual(os.listdir(self.path("elsewhere")), [])


class MpsimLive(Scratch):
    """live.py run as mpsim live runs it, with a stand-in for mpsim and
    nothing booted."""

    def setUp(self):
        super().setUp()
        with open(self.path("two.ini"), "w") as f:
            f.write(TWO_PATHS)

    def standin(self, body):
        """An mpsim that runs the shell body."""
        p = self.path("mpsim")
        with open(p, "w") as f:
            f.write("#!/bin/sh\n" + body + "\n")
        os.chmod(p, 0o755)
        return p

    def test_mpsims_warnings_shown_as_they_come(self):
        """A run that will take years is said so at once, while mpsim
        still runs it, not when (if ever) it ends."""
        mpsim = self.standin("echo 'mpsim: warning: this run simulates about 2e+12 I/Os, about 5 days' >&2\n"
                             "exec sleep 60")
        p = subprocess.Popen([sys.executable, os.path.join(TESTS, "..", "live", "live.py"), "run",
                              "--scenario=" + self.path("two.ini"), "--runtime=100000000s"],
                             env=dict(os.environ, MPSIM=mpsim, LIVE_BUILD=self.path("b")),
                             stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                             start_new_session=True)
        try:
            ready = select.select([p.stderr], [], [], 20)[0]
            line = p.stderr.readline().decode() if ready else ""
        finally:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()
            p.stderr.close()
        self.assertEqual(line, "mpsim: warning: this run simulates about 2e+12 I/Os, about 5 days\n")

    def test_mpsims_refusal_said_once(self):
        os.environ["MPSIM"] = self.standin("echo 'mpsim: warning: first' >&2\n"
                                           "echo 'mpsim: two.ini: refused' >&2\nexit 2")
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            rc = live.main(["run", "--scenario=" + self.path("two.ini")])
        self.assertEqual(rc, 2)
        self.assertEqual(err.getvalue(), "mpsim: warning: first\nmpsim: two.ini: refused\n")

    def test_a_cache_of_links_refused_before_anything_is_built(self):
        os.environ["MPSIM"] = self.standin("exit 0")
        os.environ["TMPDIR"] = self.tmp
        os.mkdir(self.path("elsewhere"), 0o700)
        os.symlink(self.path("elsewhere"), self.path("mpsim-%d" % os.getuid()))
        built = []
        saved = live.build_modules
        live.build_modules = lambda *a: built.append(a)
        try:
            msg = self.refused(live.main, ["run", "--scenario=" + self.path("two.ini")])
        finally:
            live.build_modules = saved
        self.assertIn("the build cache is a symbolic link", msg)
        self.assertEqual(built, [])


@unittest.skipUnless(os.environ.get("MPSIM"), "needs MPSIM=path of the mpsim binary")
class MpsimPhases(unittest.TestCase):
    """Each phase's figures from the run given that phase's CPU time."""

    def test_each_phase_its_own_cpu_time(self):
        here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "live")
        c = live.Case("rr", os.path.join(here, "cases", "mp-round-robin.ini"),
                      os.path.join(here, "jobs", "depths.fio"),
                      ["--path.a.delay=0", "--path.b.delay=0"], 1)
        table = "0 65536 multipath 2 queue_mode bio 0 1 1 round-robin 0 2 1 254:0 1 254:1 1"
        devs = {"a": "254:0", "b": "254:1"}

        def extra(k):
            return live.cpu_opts(100.0, 100.0) if k == 0 else live.cpu_opts(400.0, 100.0)
        with tempfile.TemporaryDirectory() as work:
            (res, _), _ = live.mpsim_case(os.environ["MPSIM"], c, table, devs, work, extra)
        self.assertEqual(len(res), 4)
        # CPU-bound: 1/(s + c)
        self.assertAlmostEqual(res[0]["iops"], 5000.0, delta=5.0)
        for ph in res[1:]:
            self.assertAlmostEqual(ph["iops"], 2000.0, delta=5.0)
        # each phase's I/Os, round-robin over two paths: 2 s of its IOPS
        self.assertAlmostEqual(sum(res[0]["ios"].values()), 10000, delta=20)
        self.assertAlmostEqual(sum(res[2]["ios"].values()), 4000, delta=20)
        self.assertLessEqual(abs(res[2]["ios"]["a"] - res[2]["ios"]["b"]), 1)

    def test_mpsims_jiffies_per_bio_are_61s_tick_arithmetic(self):
        """mpsim_jiffies: one read at a time through a dm-delay on 6.1 at
        HZ=100 is mapped just after a tick and flushed by its own timer, a
        tick after its delay's jiffies (the levels wheel's extra one): 2
        ms is 1 + 1 jiffies, 20 ms 2 + 1, 60 ms 6 + 1, as the kernel's
        dm-delay devices counted in every run of live-check."""
        here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "live")
        for ms, want in ((2, 2.0), (20, 3.0), (60, 7.0)):
            c = live.Case("d", os.path.join(here, "cases", "delay.ini"),
                          os.path.join(here, "jobs", "psync-randread.fio"),
                          ["--delay=%d" % ms], 3)
            with tempfile.TemporaryDirectory() as work:
                got = live.mpsim_jiffies(os.environ["MPSIM"], c, None, {}, work,
                                         lambda k: live.cpu_opts(120.0, 120.0))
            self.assertEqual(got, [{"d": want}])

    def test_a_runs_start_in_the_tick_is_found_from_its_runtime(self):
        """figs_at_starts: a phase through a delay set at the start where
        the kernel run's runtime ends as mpsim's does.  mpsim's own run
        started 4 ms late stands for the kernel's: the check finds 4 ms and
        takes that run's figures."""
        here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "live")
        c = live.Case("ql", os.path.join(here, "cases", "mp-queue-length.ini"),
                      os.path.join(here, "jobs", "depths.fio"),
                      ["--path.a.delay=2", "--path.b.delay=20"], 3)
        c.paths = [dict(name="a", read=2), dict(name="b", read=20)]
        table = "0 65536 multipath 2 queue_mode bio 0 1 1 queue-length 0 2 1 254:0 1 254:1 1"
        devs = {"a": "254:0", "b": "254:1"}

        def extra(k):
            return live.cpu_opts(190.0, 125.0)
        with tempfile.TemporaryDirectory() as work:
            (own, _), _ = live.mpsim_case(os.environ["MPSIM"], c, table, devs, work, extra)
            (late, _), _ = live.mpsim_case(os.environ["MPSIM"], c, table, devs, work, extra,
                                           4000)
            # fio prints whole ms, truncated
            kruns = [[dict(rt=int(ph["rt"] * 1000) / 1000.0) for ph in late]]
            fails = []
            figs, picks = live.figs_at_starts(os.environ["MPSIM"], c, table, devs, work,
                                              extra, kruns, own, fails)
        self.assertEqual(fails, [])
        # at depth 16 the start moves the mean by some 100 us, and the
        # runtime's end finds it
        k = c.jobnames.index("qd16")
        self.assertGreater(abs(own[k]["mean"] - late[k]["mean"]), 50.0)
        self.assertIn(live.TICK_GRID.index(4000), picks[k][0])
        self.assertAlmostEqual(figs[k]["mean"], late[k]["mean"], delta=10.0)

    def test_each_kernel_run_beside_mpsim_given_its_own_cpu_time(self):
        """mpsim_for_runs: one mpsim run per kernel run, given that run's
        costs; CPU-bound on two paths of no delay, each makes 1/(s + c),
        and mpsim's figure is their mean."""
        here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "live")
        c = live.Case("rr", os.path.join(here, "cases", "mp-round-robin.ini"),
                      os.path.join(here, "jobs", "depths.fio"),
                      ["--path.a.delay=0", "--path.b.delay=0"], 2)
        table = "0 65536 multipath 2 queue_mode bio 0 1 1 round-robin 0 2 1 254:0 1 254:1 1"
        devs = {"a": "254:0", "b": "254:1"}
        costs = [[(100.0, 100.0, 200.0)] * 4, [(300.0, 100.0, 400.0)] * 4]
        with tempfile.TemporaryDirectory() as work:
            mean, per, cmd, _ = live.mpsim_for_runs(os.environ["MPSIM"], c, table, devs, work,
                                                    [None, None], costs)
        self.assertEqual(len(per), 2)
        self.assertAlmostEqual(per[0][0]["iops"], 5000.0, delta=5.0)
        self.assertAlmostEqual(per[1][2]["iops"], 2500.0, delta=5.0)
        self.assertAlmostEqual(mean[1]["iops"], 3750.0, delta=5.0)
        self.assertIn("--submit_cpu=300.0us", cmd)


class SecondLook(unittest.TestCase):
    """run_cases(second=True): a case with a figure outside runs its
    repeats again on fresh boots and is judged over all its runs, and
    nothing runs again when nothing is outside.  kernel_runs and judge are replaced by stand-ins that
    record what they were given."""

    def run_with(self, failing, second=True, later_failing=()):
        cs = [types.SimpleNamespace(name="rr-0-0", repeats=3),
              types.SimpleNamespace(name="rr-0-20", repeats=3),
              types.SimpleNamespace(name="hst-0-20", repeats=3)]
        boots, judged = [], []

        def kernel_runs(cases, build, mods, nboots, run):
            boots.append(([c.name for c in cases], nboots, os.path.basename(run)))
            tag = "more" if run.endswith("run-more") else "first"
            return ({i: ["%s %s %d" % (tag, c.name, r) for r in range(c.repeats)]
                     for i, c in enumerate(cases)}, {}, [], sum(c.repeats for c in cases), 1.0)

        def judge(cases, kern, gerr, build, mpsim):
            judged.append({cases[i].name: list(v) for i, v in kern.items()})
            fl = failing if len(judged) == 1 else list(later_failing)
            return dict(fails=["%s: outside" % cases[i].name for i in fl],
                        failing={i: ["%s: outside" % cases[i].name] for i in fl},
                        lines=[], notes=[], lates=[], scoped=[], mixed=[], steal=None)

        saved = live.kernel_runs, live.judge, live.note, live.uml_release
        live.kernel_runs, live.judge = kernel_runs, judge
        live.note, live.uml_release = (lambda m: None), (lambda: "6.1")
        try:
            with tempfile.TemporaryDirectory() as d:
                out = os.path.join(d, "r.md")
                with open(os.devnull, "w") as null:
                    so, sys.stdout = sys.stdout, null
                    try:
                        rc = live.run_cases(cs, os.path.join(d, "b"), "mpsim", out, [], "t",
                                            3, second)
                    finally:
                        sys.stdout = so
                with open(out) as f:
                    text = f.read()
        finally:
            live.kernel_runs, live.judge, live.note, live.uml_release = saved
        return rc, boots, judged, text

    def test_the_failing_cases_run_again_and_are_judged_on_all_runs(self):
        rc, boots, judged, text = self.run_with([2])
        self.assertEqual(boots, [(["rr-0-0", "rr-0-20", "hst-0-20"], 3, "run"),
                                 (["hst-0-20"], 3, "run-more")])
        self.assertEqual(len(judged), 2)
        self.assertEqual(judged[1]["hst-0-20"],
                         ["first hst-0-20 %d" % r for r in range(3)] +
                         ["more hst-0-20 %d" % r for r in range(3)])
        self.assertEqual(judged[1]["rr-0-20"], judged[0]["rr-0-20"])
        self.assertEqual(len(judged[1]["rr-0-0"]), 3)
        self.assertEqual(rc, 0)
        self.assertIn("A second look", text)
        self.assertIn("after the first runs, `hst-0-20` had a figure outside", text)
        self.assertIn("(hst-0-20: outside)", text)
        self.assertNotIn("Outside the kernel's spread", text)
        # what was outside after three runs, of the cases looked at only
        self.assertNotIn("rr-0-0: outside", text)

    def test_outside_after_the_second_look_fails(self):
        rc, boots, judged, text = self.run_with([1], later_failing=[1])
        self.assertEqual(rc, 1)
        self.assertEqual(len(boots), 2)
        self.assertIn("Outside the kernel's spread (1)", text)

    def test_no_second_look_when_nothing_is_outside_or_for_mpsim_live(self):
        rc, boots, judged, _ = self.run_with([])
        self.assertEqual((rc, len(boots), len(judged)), (0, 1, 1))
        rc, boots, judged, _ = self.run_with([1], second=False)
        self.assertEqual((rc, len(boots), len(judged)), (1, 1, 1))


if __name__ == "__main__":
    unittest.main()
