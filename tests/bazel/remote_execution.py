#!/usr/bin/env python3
"""A remote execution service for tests: the Remote Execution API v2 that
Bazel's --remote_executor speaks, over gRPC, in this process.

It keeps a content-addressed store and an action cache in memory and runs
each action it is sent as a worker of a build farm would: in a directory of
its own that holds the action's input tree and nothing else (built from the
store, files copied, not linked), with the command's arguments and
environment only, and it returns the declared outputs that the command
wrote. Bazel then sees "N remote" in its summary of processes.

The protocol's messages are compiled at start-up with protoc from the
.proto files that Debian's bazel-bootstrap-source installs (the API Bazel
4.2.3 was built against); the services are plain gRPC method handlers.

Needs /usr/bin/python3 with Debian's python3-grpcio and python3-protobuf,
protobuf-compiler and bazel-bootstrap-source (scripts/setup-deps.sh).

    with RemoteExecutor() as executor:
        ... bazel build --remote_executor=<executor.address> ...
        executor.executed   # how many actions ran here
"""

import concurrent.futures
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import threading

PROTO_ROOT = "/usr/src/bazel-bootstrap/third_party"
PROTOS = [
    "build/bazel/remote/execution/v2/remote_execution.proto",
    "build/bazel/semver/semver.proto",
    "google/api/annotations.proto",
    "google/api/http.proto",
    "google/longrunning/operations.proto",
    "google/rpc/status.proto",
    "google/bytestream/bytestream.proto",
]


def missing():
    """Why the service cannot run here, or None."""
    if not shutil.which("protoc"):
        return "no protoc (Debian: protobuf-compiler)"
    if not os.path.isdir(os.path.join(PROTO_ROOT, "remoteapis")):
        return "no %s (Debian: bazel-bootstrap-source)" % PROTO_ROOT
    try:
        import grpc  # noqa: F401
        import google.protobuf  # noqa: F401
    except ImportError as e:
        return "%s (Debian: python3-grpcio, python3-protobuf)" % e
    return None


def _compile(out):
    os.makedirs(out)
    subprocess.run(["protoc", "-I" + PROTO_ROOT + "/remoteapis",
                    "-I" + PROTO_ROOT + "/googleapis", "-I/usr/include",
                    "--python_out=" + out] + PROTOS,
                   check=True, capture_output=True)
    sys.path.insert(0, out)
    from build.bazel.remote.execution.v2 import remote_execution_pb2
    from google.bytestream import bytestream_pb2
    from google.longrunning import operations_pb2
    return remote_execution_pb2, bytestream_pb2, operations_pb2


class RemoteExecutor:
    def __init__(self):
        self.executed = 0
        self._tmp = None
        self._server = None

    def __enter__(self):
        import grpc
        self._tmp = tempfile.TemporaryDirectory(prefix="rematch-reapi-")
        self.re, self.bs, self.ops = _compile(
            os.path.join(self._tmp.name, "pb"))
        self.cas = {}      # hash -> bytes
        self.ac = {}       # action hash -> ActionResult bytes
        self.lock = threading.Lock()
        self._server = grpc.server(
            concurrent.futures.ThreadPoolExecutor(max_workers=8),
            options=[("grpc.max_receive_message_length", 1 << 30),
                     ("grpc.max_send_message_length", 1 << 30)])
        self._server.add_generic_rpc_handlers([self._handlers(grpc)])
        port = self._server.add_insecure_port("127.0.0.1:0")
        self._server.start()
        self.address = "grpc://127.0.0.1:%d" % port
        return self

    def __exit__(self, *exc):
        self._server.stop(None)
        self._tmp.cleanup()

    # ---- the services ------------------------------------------------------

    def _handlers(self, grpc):
        re, bs = self.re, self.bs
        unary = grpc.unary_unary_rpc_method_handler
        stream_out = grpc.unary_stream_rpc_method_handler
        stream_in = grpc.stream_unary_rpc_method_handler
        v2 = "build.bazel.remote.execution.v2."

        def method(kind, fn, request, response):
            return kind(fn, request_deserializer=request.FromString,
                        response_serializer=response.SerializeToString)

        table = {
            v2 + "Capabilities/GetCapabilities": method(
                unary, self.capabilities, re.GetCapabilitiesRequest,
                re.ServerCapabilities),
            v2 + "ContentAddressableStorage/FindMissingBlobs": method(
                unary, self.find_missing, re.FindMissingBlobsRequest,
                re.FindMissingBlobsResponse),
            v2 + "ContentAddressableStorage/BatchUpdateBlobs": method(
                unary, self.batch_update, re.BatchUpdateBlobsRequest,
                re.BatchUpdateBlobsResponse),
            v2 + "ContentAddressableStorage/BatchReadBlobs": method(
                unary, self.batch_read, re.BatchReadBlobsRequest,
                re.BatchReadBlobsResponse),
            v2 + "ActionCache/GetActionResult": method(
                unary, self.get_action_result, re.GetActionResultRequest,
                re.ActionResult),
            v2 + "ActionCache/UpdateActionResult": method(
                unary, self.update_action_result,
                re.UpdateActionResultRequest, re.ActionResult),
            v2 + "Execution/Execute": method(
                stream_out, self.execute, re.ExecuteRequest,
                self.ops.Operation),
            "google.bytestream.ByteStream/Read": method(
                stream_out, self.read, bs.ReadRequest, bs.ReadResponse),
            "google.bytestream.ByteStream/Write": method(
                stream_in, self.write, bs.WriteRequest, bs.WriteResponse),
        }

        class Handler(grpc.GenericRpcHandler):
            def service(self, details):
                return table.get(details.method.lstrip("/"))

        return Handler()

    def capabilities(self, request, context):
        re = self.re
        sha256 = re.DigestFunction.SHA256
        caps = re.ServerCapabilities()
        caps.cache_capabilities.digest_function.append(sha256)
        caps.cache_capabilities.action_cache_update_capabilities \
            .update_enabled = True
        caps.cache_capabilities.max_batch_total_size_bytes = 4 << 20
        caps.cache_capabilities.symlink_absolute_path_strategy = \
            re.SymlinkAbsolutePathStrategy.ALLOWED
        caps.execution_capabilities.digest_function = sha256
        caps.execution_capabilities.exec_enabled = True
        caps.low_api_version.major = 2
        caps.high_api_version.major = 2
        return caps

    def find_missing(self, request, context):
        out = self.re.FindMissingBlobsResponse()
        with self.lock:
            out.missing_blob_digests.extend(
                d for d in request.blob_digests if d.hash not in self.cas)
        return out

    def batch_update(self, request, context):
        out = self.re.BatchUpdateBlobsResponse()
        for r in request.requests:
            self._put(r.data)
            out.responses.add(digest=r.digest)
        return out

    def batch_read(self, request, context):
        import grpc
        out = self.re.BatchReadBlobsResponse()
        for d in request.digests:
            data = self.cas.get(d.hash)
            resp = out.responses.add(digest=d)
            if data is None:
                resp.status.code = grpc.StatusCode.NOT_FOUND.value[0]
            else:
                resp.data = data
        return out

    def get_action_result(self, request, context):
        import grpc
        data = self.ac.get(request.action_digest.hash)
        if data is None:
            context.abort(grpc.StatusCode.NOT_FOUND, "not in the cache")
        return self.re.ActionResult.FromString(data)

    def update_action_result(self, request, context):
        with self.lock:
            self.ac[request.action_digest.hash] = \
                request.action_result.SerializeToString()
        return request.action_result

    def read(self, request, context):
        import grpc
        # {instance}/blobs/{hash}/{size}
        parts = request.resource_name.split("/")
        data = self.cas.get(parts[parts.index("blobs") + 1])
        if data is None:
            context.abort(grpc.StatusCode.NOT_FOUND, request.resource_name)
        data = data[request.read_offset:]
        if request.read_limit:
            data = data[:request.read_limit]
        for i in range(0, max(len(data), 1), 1 << 20):
            yield self.bs.ReadResponse(data=data[i:i + (1 << 20)])

    def write(self, requests, context):
        chunks = []
        for r in requests:
            chunks.append(r.data)
        data = b"".join(chunks)
        self._put(data)
        return self.bs.WriteResponse(committed_size=len(data))

    def execute(self, request, context):
        re = self.re
        action = re.Action.FromString(self.cas[request.action_digest.hash])
        cached = None if request.skip_cache_lookup else \
            self.ac.get(request.action_digest.hash)
        response = re.ExecuteResponse()
        if cached is not None:
            response.result.CopyFrom(re.ActionResult.FromString(cached))
            response.cached_result = True
        else:
            response.result.CopyFrom(self._run(action))
            if response.result.exit_code == 0 and not action.do_not_cache:
                with self.lock:
                    self.ac[request.action_digest.hash] = \
                        response.result.SerializeToString()
        op = self.ops.Operation(name="operations/" +
                                request.action_digest.hash, done=True)
        op.response.Pack(response)
        yield op

    # ---- running an action -------------------------------------------------

    def _put(self, data):
        h = hashlib.sha256(data).hexdigest()
        with self.lock:
            self.cas[h] = data
        d = self.re.Digest(hash=h, size_bytes=len(data))
        return d

    def _materialize(self, digest, where):
        tree = self.re.Directory.FromString(self.cas[digest.hash])
        os.makedirs(where, exist_ok=True)
        for f in tree.files:
            path = os.path.join(where, f.name)
            with open(path, "wb") as out:
                out.write(self.cas[f.digest.hash])
            os.chmod(path, 0o755 if f.is_executable else 0o644)
        for s in tree.symlinks:
            os.symlink(s.target, os.path.join(where, s.name))
        for d in tree.directories:
            self._materialize(d.digest, os.path.join(where, d.name))

    def _run(self, action):
        re = self.re
        command = re.Command.FromString(self.cas[action.command_digest.hash])
        with tempfile.TemporaryDirectory(prefix="worker-",
                                         dir=self._tmp.name) as root:
            self._materialize(action.input_root_digest, root)
            cwd = os.path.join(root, command.working_directory)
            outputs = list(command.output_files) + list(command.output_paths)
            for path in outputs + list(command.output_directories):
                os.makedirs(os.path.dirname(os.path.join(cwd, path)),
                            exist_ok=True)
            env = {v.name: v.value for v in command.environment_variables}
            argv = list(command.arguments)
            if not os.path.isabs(argv[0]):
                argv[0] = os.path.join(cwd, argv[0])
            p = subprocess.run(argv, cwd=cwd, env=env, capture_output=True)
            with self.lock:
                self.executed += 1
            result = re.ActionResult(exit_code=p.returncode)
            result.stdout_digest.CopyFrom(self._put(p.stdout))
            result.stderr_digest.CopyFrom(self._put(p.stderr))
            for path in outputs:
                full = os.path.join(cwd, path)
                if not os.path.isfile(full):
                    continue
                with open(full, "rb") as f:
                    digest = self._put(f.read())
                result.output_files.add(path=path, digest=digest,
                                        is_executable=os.access(full, os.X_OK))
            return result
