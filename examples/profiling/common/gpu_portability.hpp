// One spelling for the few GPU runtime calls the examples use, so a payload is written once and
// builds with hipcc (AMD) and nvcc (NVIDIA). Kept to what the examples need; not a general shim.
#pragma once

#include <string>

#if defined(__HIP_PLATFORM_AMD__) || defined(__HIPCC__)
#include <hip/hip_runtime.h>

namespace gpu {
inline constexpr const char* api_name = "HIP";
using error_t = hipError_t;
using event_t = hipEvent_t;
using device_properties = hipDeviceProp_t;
inline constexpr error_t success = hipSuccess;
inline constexpr auto host_to_device = hipMemcpyHostToDevice;
inline constexpr auto device_to_host = hipMemcpyDeviceToHost;

inline error_t get_device_count(int* count) {
  return hipGetDeviceCount(count);
}
inline error_t set_device(int device) {
  return hipSetDevice(device);
}
inline error_t get_device_properties(device_properties* props, int device) {
  return hipGetDeviceProperties(props, device);
}
inline std::string arch_name(const device_properties& props) {
  return props.gcnArchName;
}
inline error_t malloc_bytes(void** ptr, std::size_t bytes) {
  return hipMalloc(ptr, bytes);
}
inline error_t free_bytes(void* ptr) {
  return hipFree(ptr);
}
inline error_t copy(void* dst, const void* src, std::size_t bytes, hipMemcpyKind kind) {
  return hipMemcpy(dst, src, bytes, kind);
}
inline error_t event_create(event_t* event) {
  return hipEventCreate(event);
}
inline error_t event_destroy(event_t event) {
  return hipEventDestroy(event);
}
inline error_t event_record(event_t event) {
  return hipEventRecord(event, nullptr);
}
inline error_t event_synchronize(event_t event) {
  return hipEventSynchronize(event);
}
inline error_t event_elapsed_ms(float* ms, event_t start, event_t stop) {
  return hipEventElapsedTime(ms, start, stop);
}
inline error_t last_error() {
  return hipGetLastError();
}
inline error_t device_synchronize() {
  return hipDeviceSynchronize();
}
inline const char* error_string(error_t error) {
  return hipGetErrorString(error);
}
}  // namespace gpu

#elif defined(__CUDACC__)
#include <cuda_runtime.h>

namespace gpu {
inline constexpr const char* api_name = "CUDA";
using error_t = cudaError_t;
using event_t = cudaEvent_t;
using device_properties = cudaDeviceProp;
inline constexpr error_t success = cudaSuccess;
inline constexpr auto host_to_device = cudaMemcpyHostToDevice;
inline constexpr auto device_to_host = cudaMemcpyDeviceToHost;

inline error_t get_device_count(int* count) {
  return cudaGetDeviceCount(count);
}
inline error_t set_device(int device) {
  return cudaSetDevice(device);
}
inline error_t get_device_properties(device_properties* props, int device) {
  return cudaGetDeviceProperties(props, device);
}
inline std::string arch_name(const device_properties& props) {
  return "sm_" + std::to_string(props.major) + std::to_string(props.minor);
}
inline error_t malloc_bytes(void** ptr, std::size_t bytes) {
  return cudaMalloc(ptr, bytes);
}
inline error_t free_bytes(void* ptr) {
  return cudaFree(ptr);
}
inline error_t copy(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind) {
  return cudaMemcpy(dst, src, bytes, kind);
}
inline error_t event_create(event_t* event) {
  return cudaEventCreate(event);
}
inline error_t event_destroy(event_t event) {
  return cudaEventDestroy(event);
}
inline error_t event_record(event_t event) {
  return cudaEventRecord(event, nullptr);
}
inline error_t event_synchronize(event_t event) {
  return cudaEventSynchronize(event);
}
inline error_t event_elapsed_ms(float* ms, event_t start, event_t stop) {
  return cudaEventElapsedTime(ms, start, stop);
}
inline error_t last_error() {
  return cudaGetLastError();
}
inline error_t device_synchronize() {
  return cudaDeviceSynchronize();
}
inline const char* error_string(error_t error) {
  return cudaGetErrorString(error);
}
}  // namespace gpu

#else
#error "gpu_portability.hpp: compile with hipcc (HIP) or nvcc (CUDA)"
#endif
