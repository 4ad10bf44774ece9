# Philox4x32.stack typed for PTX_PHILOX's variables: philox_ prefixed names,
# only ctr.x written back (ctr.y/z/w are inputs of the site), the four
# outputs requested after it, and no float outputs.
s/\b(key_[xy]|ctr_[xyzw])\b/philox_\1/g
s/philox_ctr_([yzw]) : PHILOX mod/philox_ctr_\1 : PHILOX in/g
/u0 : F32 out/d
s/^\.requests \{.*\}/.requests { philox_ctr_x r0 r1 r2 r3 }/
