// Inline PTX: multiple instructions, local regs, predicates, special regs.
extern "C" __global__ void asm_ops(unsigned *out, unsigned a, unsigned b) {
  unsigned lane, r, s, clk;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
  asm volatile("{\n\t"
               ".reg .pred p;\n\t"
               ".reg .u32 t;\n\t"
               "add.u32 t, %1, %2;\n\t"
               "setp.gt.u32 p, t, 100;\n\t"
               "@p sub.u32 t, t, 100;\n\t"
               "mov.u32 %0, t;\n\t"
               "}"
               : "=r"(r)
               : "r"(a), "r"(b));
  asm("brev.b32 %0, %1;\n\tpopc.b32 %0, %0;" : "=r"(s) : "r"(r));
  asm volatile("mov.u32 %0, %%clock;" : "=r"(clk));
  asm volatile("membar.gl;" ::: "memory");
  out[threadIdx.x] = lane + r + s + (clk & 1);
}
