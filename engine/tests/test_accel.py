# SPDX-License-Identifier: GPL-2.0
"""The accelerator's pick (pcengine.accel): PC_ACCEL first, then the
cache while its key holds, else one probe whose answer is cached."""

import glob
import os
import tempfile
import unittest
from unittest import mock

from pcengine import accel


class Pick(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.env = {'XDG_CACHE_HOME': self.dir.name}
        self.probes = 0

    def tearDown(self):
        self.dir.cleanup()

    def probe(self, env):
        self.probes += 1
        return 'tcg', 'the probe'

    def cache(self):
        with open(accel.cache_path(self.env)) as f:
            return f.read().split('\n')

    def test_pc_accel_is_taken_as_given_without_a_probe(self):
        self.assertEqual(accel.pick(dict(self.env, PC_ACCEL='kvm'), self.probe),
                         ('kvm', 'PC_ACCEL=kvm'))
        self.assertEqual(self.probes, 0)
        self.assertFalse(os.path.exists(accel.cache_path(self.env)))

    def test_one_probe_then_the_cache_answers(self):
        self.assertEqual(accel.pick(self.env, self.probe, today='2026-12-06'),
                         ('tcg', 'the probe'))
        self.assertEqual(self.cache(), [accel.key(), 'tcg', 'the probe', '2026-12-06', ''])
        self.assertEqual(accel.pick(self.env, self.probe),
                         ('tcg', 'cached: the probe, probed 2026-12-06'))
        self.assertEqual(self.probes, 1)

    def test_a_stale_or_broken_entry_is_probed_again_and_replaced(self):
        path = accel.cache_path(self.env)
        os.makedirs(os.path.dirname(path))
        stale = accel.key().rsplit('qemu=', 1)[0] + 'qemu=0.0-stale'
        for entry in ([stale, 'kvm', 'a stale entry', '2000-01-01'],
                      [accel.key(), 'hvf', 'no such accelerator', '2000-01-01'],
                      [accel.key(), 'kvm'],
                      ['\udcff' + accel.key(), 'kvm', 'not UTF-8', '2000-01-01']):
            with open(path, 'w', errors='surrogateescape') as f:
                f.write('\n'.join(entry) + '\n')
            self.assertEqual(accel.pick(self.env, self.probe, today='2026-12-06'),
                             ('tcg', 'the probe'))
            self.assertEqual(self.cache()[:2], [accel.key(), 'tcg'])
        self.assertEqual(self.probes, 4)

    def test_no_device_is_tcg_without_booting(self):
        self.assertEqual(accel.probe(self.env, dev=os.path.join(self.dir.name, 'kvm')),
                         ('tcg', 'no /dev/kvm'))

    @unittest.skipUnless(glob.glob('/boot/vmlinuz-*'), 'no kernel in /boot')
    def test_no_qemu_to_probe_with_is_tcg_saying_so(self):
        dev = os.path.join(self.dir.name, 'kvm')
        open(dev, 'w').close()
        with mock.patch.dict(os.environ, {'PATH': self.dir.name}):
            accel_name, why = accel.probe(self.env, dev=dev)
        self.assertEqual(accel_name, 'tcg')
        self.assertRegex(why, r'^no QEMU to probe KVM with \(')

    def test_the_key_names_the_kernel_the_device_and_qemu(self):
        self.assertRegex(accel.key(), r'^kernel=\S+ kvm=(none|[0-9a-f]+:[0-9a-f]+) qemu=\S*$')


if __name__ == '__main__':
    unittest.main()
