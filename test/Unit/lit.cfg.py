# -*- Python -*-
# Runs every GoogleTest binary in <build>/unittests as part of check-mmptx.
import os

import lit.formats

config.name = 'MMPTX-Unit'
config.suffixes = []
config.test_exec_root = os.path.join(config.mmptx_obj_root, 'unittests')
config.test_source_root = config.test_exec_root
config.test_format = lit.formats.GoogleTest('.', 'Tests')
