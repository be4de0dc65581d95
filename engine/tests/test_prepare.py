# SPDX-License-Identifier: GPL-2.0
"""A series' preparation (pcengine.prepare): which cases run, which are
skipped and why, and the guests they share."""

import io
import os
import tempfile
import types
import unittest

from pcengine import prepare

CONFIG = 'CONFIG_KASAN=y\nCONFIG_SLUB_DEBUG=m\n# CONFIG_KFENCE is not set\n'


def write(d, name, text):
    path = os.path.join(d, name)
    with open(path, 'w') as f:
        f.write(text)
    return path


def read(path):
    with open(path) as f:
        return f.read()


class Plan(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        d = self.tmp.name
        self.cases = os.path.join(d, 'cases')
        self.results = os.path.join(d, 'results')
        self.root = os.path.join(d, 'checkout')
        self.modroot = os.path.join(d, 'rel')
        for sub in (self.cases, self.results, os.path.join(self.root, 'tests', 'cases'),
                    os.path.join(self.modroot, 'lib/modules/R/kernel/fs/pstore')):
            os.makedirs(sub)
        write(os.path.join(self.modroot, 'lib/modules/R/kernel/fs/pstore'), 'ramoops.ko', '')
        self.config = write(d, 'config', CONFIG)

    def tearDown(self):
        self.tmp.cleanup()

    def plan(self, **change):
        args = dict(series='6.1', release='R', root_of_release=self.modroot,
                    config=self.config, cases=self.cases, kernels='6.1', filter='.',
                    shard='1/1', dealt=0, results=self.results, kdump_why=None,
                    no_ramoops='', listing=False, root=self.root)
        args.update(change)
        out = io.StringIO()
        prepare.plan(types.SimpleNamespace(**args), {}, out)
        return out.getvalue().splitlines()

    def result(self, name):
        return read(os.path.join(self.results, '6.1-%s.result' % name))

    def test_needs_skip_unbooted_with_the_reason(self):
        write(self.cases, 'direct_a.sh', '# needs: CONFIG_KASAN CONFIG_KFENCE !CONFIG_SLUB_DEBUG\n')
        write(self.cases, 'direct_b.sh', '# needs: fs/pstore/ramoops.ko lib/rs/rs.ko\n')
        write(self.cases, 'direct_c.sh', '# needs: fs/pstore/ramoops.ko CONFIG_KASAN\n')
        lines = self.plan()
        self.assertEqual(self.result('direct_a'), 'ok 6.1/direct_a # SKIP needs CONFIG_KFENCE'
                         ' !CONFIG_SLUB_DEBUG, which R does not meet\n')
        self.assertEqual(self.result('direct_b'), 'ok 6.1/direct_b # SKIP no rs.ko for R'
                         ' (looked in %s/lib/modules/R/kernel/lib/rs)\n' % self.modroot)
        # Skipped cases keep their place in the order; only c boots.
        self.assertEqual([x for x in lines if x.startswith(('order', 'job'))],
                         ['order 6.1-direct_a', 'order 6.1-direct_b', 'order 6.1-direct_c',
                          'job single ' + os.path.join(self.cases, 'direct_c.sh')])

    def test_a_kdump_case_is_a_job_of_its_own_kind(self):
        write(self.cases, 'kdump_bugon.sh', '# kdump: 1\n')
        write(self.cases, 'direct_d.sh', '# expect: x\n')
        self.assertEqual([x for x in self.plan() if x.startswith('job')],
                         ['job single ' + os.path.join(self.cases, 'direct_d.sh'),
                          'job kdump ' + os.path.join(self.cases, 'kdump_bugon.sh')])

    def test_kdump_and_pstore_without_their_lanes(self):
        write(self.cases, 'kdump_bugon.sh', '# kdump: 1\n')
        write(self.cases, 'pstore_y.sh', '# pstore: 1\n# expect: crash\n'
              '# expect-out: PC-PSTORE-BEGIN\n# expect-out: record\nbody\n')
        self.plan(kdump_why='no crashkernel', no_ramoops='R has no CONFIG_PSTORE_RAM',
                  listing=True)
        self.assertEqual(self.result('kdump_bugon'),
                         'ok 6.1/kdump_bugon # SKIP no kdump guest on R: no crashkernel\n')
        self.assertEqual(read(os.path.join(self.cases, 'pstore_y.sh')),
                         '# expect: crash\nbody\n# skip: R has no CONFIG_PSTORE_RAM: the'
                         ' crash is checked, its pstore record is not\n')

    def test_batches_by_boot_line_and_lone_guests_boot(self):
        write(self.cases, 'm_1.sh', '# batch-ok\n# boot: a=1\n# expect: x\nrun 1\n')
        write(self.cases, 'm_2.sh', '# batch-ok\n# boot: a=1\nrun 2\n\n')
        write(self.cases, 'm_3.sh', '# batch-ok\nrun 3\n')
        write(self.cases, 'p_1.sh', '# boot: a=1\nrun p\n')
        write(os.path.join(self.root, 'tests', 'cases'), 'h.sh', '')
        write(self.cases, 'h.sh', 'hand\n')
        lines = self.plan()
        jobs = [x.split()[-1] for x in lines if x.startswith('job')]
        self.assertEqual([os.path.basename(j) for j in jobs],
                         ['zz_batch_1.sh', 'zz_batch_2.sh', 'h.sh', 'p_1.sh'])
        self.assertEqual(read(jobs[1]), '\n'.join([
            '# batch of 2: cases that leave the kernel up', '# boot: a=1',
            '# part: m_1', '# part: m_2',
            "echo 'PC-PART m_1'", "echo 'PC-PART m_1' >/dev/kmsg",
            'echo 1 >/sys/kernel/debug/clear_warn_once', 'run 1',
            "pc-guest write $D/crashpoints '\\n' >/dev/null", 'echo PC-GUEST-END',
            "echo 'PC-PART m_2'", "echo 'PC-PART m_2' >/dev/kmsg",
            'echo 1 >/sys/kernel/debug/clear_warn_once', 'run 2',
            "pc-guest write $D/crashpoints '\\n' >/dev/null", 'echo PC-GUEST-END', '']))
        # The plain batch and the hand case share the plain command line;
        # the a=1 batch and p_1 share theirs: no guest is alone.
        self.assertNotIn(prepare.FRESH_LONE, read(jobs[0]) + read(jobs[1]) + read(jobs[3]))
        os.remove(jobs[0])
        os.remove(jobs[1])
        write(self.cases, 'p_1.sh', '# boot: b=2\nrun p\n')
        lines = self.plan()
        self.assertTrue(read(os.path.join(self.cases, 'p_1.sh')).endswith(prepare.FRESH_LONE + '\n'))

    def test_filter_shard_and_listing(self):
        for n in ('a', 'b', 'c', 'd'):
            write(self.cases, 'direct_%s.sh' % n, '# batch-ok\n')
        lines = self.plan(filter='direct_[abc]', shard='2/2', dealt=1, listing=True)
        # Dealt after one case of a series before: a and c go to slice 2.
        self.assertIn('dealt 4', lines)
        self.assertIn('lkdtm', lines)
        self.assertEqual([x for x in lines if x.startswith(('order', 'job'))],
                         ['order 6.1-direct_a', 'order 6.1-direct_c'])
        self.assertFalse([f for f in os.listdir(self.cases) if f.startswith('zz_')])

    def test_bench_modules_a_case_loads(self):
        write(self.cases, 'race_x.sh', 'insmod /pc_race.ko\n')
        write(self.cases, 'matrix_y.sh', '# batch-ok\n')
        lines = self.plan()
        self.assertEqual([x for x in lines if x.startswith('module')],
                         ['module paths', 'module race'])


if __name__ == '__main__':
    unittest.main()
