// Texture and surface objects (tex, tld4, suld, sust, txq) for the
// real-world PTX corpus.

__global__ void texFetch(cudaTextureObject_t t1, cudaTextureObject_t t2,
                         cudaTextureObject_t t3, cudaTextureObject_t tl,
                         cudaTextureObject_t tc, float4 *out, float x,
                         float y, float z) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 a = tex2D<float4>(t2, x + i, y);
  float b = tex1D<float>(t1, x * i);
  float c = tex3D<float>(t3, x, y, z + i);
  float d = tex2DLayered<float>(tl, x, y, i & 3);
  float4 e = texCubemap<float4>(tc, x, y, z);
  float f = tex2DLod<float>(t2, x, y, 1.5f);
  float g = tex2DGrad<float>(t2, x, y, make_float2(1, 0), make_float2(0, 1));
  float4 h = tex2Dgather<float4>(t2, x, y, 1);
  int j = tex1Dfetch<int>(t1, i);
  out[i] = make_float4(a.x + b, a.y + c, a.z + d + e.w + f + g, a.w + h.x + j);
}

__global__ void texInt(cudaTextureObject_t t, int4 *out, int x) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int4 a = tex1Dfetch<int4>(t, x + i);
  uchar4 b = tex1Dfetch<uchar4>(t, i);
  short2 c = tex1Dfetch<short2>(t, i + 1);
  out[i] = make_int4(a.x + b.x, a.y + c.y, a.z + c.x, a.w + b.w);
}

__global__ void surfaces(cudaSurfaceObject_t s1, cudaSurfaceObject_t s2,
                         cudaSurfaceObject_t s3, cudaSurfaceObject_t sl,
                         int w) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y;
  float4 v = surf2Dread<float4>(s2, x * 16, y);
  surf2Dwrite(make_float4(v.w, v.z, v.y, v.x), s2, x * 16, y, cudaBoundaryModeClamp);
  int a = surf1Dread<int>(s1, x * 4, cudaBoundaryModeZero);
  surf1Dwrite(a + w, s1, x * 4);
  uchar4 c = surf3Dread<uchar4>(s3, x * 4, y, 2);
  surf3Dwrite(c, s3, x * 4, y, 3, cudaBoundaryModeTrap);
  ushort2 h = surf2DLayeredread<ushort2>(sl, x * 4, y, 1);
  surf2DLayeredwrite(make_ushort2(h.y, h.x), sl, x * 4, y, 0);
}
