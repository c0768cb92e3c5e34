/*
 * Stands in for Windows' bcryptprimitives.dll, which Windows 10 and 11 have and Debian's Wine 8
 * lacks: Bun's Windows runtime imports ProcessPrng from it at start. Built with MinGW by
 * test/installer/wine.ts and put beside the exe under test; on a real PC Windows' own is used.
 */
#include <windows.h>

BOOLEAN NTAPI SystemFunction036(PVOID buffer, ULONG length); /* RtlGenRandom, advapi32 */

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length) {
  while (length > 0) {
    ULONG chunk = length > 0x7fffffff ? 0x7fffffff : (ULONG)length;
    if (!SystemFunction036(data, chunk)) return FALSE;
    data += chunk;
    length -= chunk;
  }
  return TRUE;
}
