"""rematch as a Bazel aspect: the whole-program analysis as cacheable actions.

    bazel build //... --aspects=@rematch//:rematch.bzl%rematch_aspect \
        --output_groups=rematch

For every cc_library, cc_binary and cc_test the aspect visits (the targets
named and, through `deps`, everything they depend on) it creates:

- one `RematchSummarize` action per C/C++ source: `rematch summarize`, with
  the flags of the target's compile (the C++ toolchain's and the target's
  own, its include paths and defines, from CcInfo), its inputs the source,
  the headers the target may include and the toolchain's files; its output
  the source's facts, `<target>.rematch/<source>.rsum`;
- one `RematchLink` action: `rematch link` of the target's facts and its
  dependencies' links, `<target>.rematch.rlink` (a link of links equals the
  link of all files, so each target links only what is new);
- one `RematchReport` action: `rematch report --format=sarif` of the
  target's own files against its link, `<target>.rematch.sarif`, in the
  output group `rematch`. Findings do not fail the build; `rematch_test`
  does.

Every action reads only its declared inputs and writes bytes that depend on
their content alone (paths are relative to the execution root), so a disk
cache or a remote cache hits across machines and checkouts, and the actions
run on remote executors unchanged.

docs/bazel.md says how to set it up.
"""

load("@bazel_tools//tools/build_defs/cc:action_names.bzl", "ACTION_NAMES")
load("@bazel_tools//tools/cpp:toolchain_utils.bzl", "find_cpp_toolchain")

RematchInfo = provider(
    doc = "What rematch_aspect made for a target.",
    fields = {
        "link": "File: the .rlink of the target and everything it depends on",
        "rsums": "list of File: the .rsum of the target's own sources",
        "sarif": "File: the report of the target's own sources",
        "sources": "depset of File: every source and header the link covers",
    },
)

_SOURCE_EXTENSIONS = ["c", "cc", "cpp", "cxx", "c++", "C"]
_RULES = ["cc_library", "cc_binary", "cc_test"]

def _flags(ctx, cc_toolchain, features, compilation, is_c):
    """The compile flags of one of the target's sources, without the source,
    the output and the dependency file: rematch adds the source itself."""
    fragment = ctx.fragments.cpp
    user = (fragment.copts + (fragment.conlyopts if is_c else fragment.cxxopts) +
            [ctx.expand_make_variables("copts", c, {}) for c in getattr(ctx.rule.attr, "copts", [])])
    variables = cc_common.create_compile_variables(
        feature_configuration = features,
        cc_toolchain = cc_toolchain,
        user_compile_flags = user,
        include_directories = compilation.includes,
        quote_include_directories = compilation.quote_includes,
        system_include_directories = compilation.system_includes,
        framework_include_directories = compilation.framework_includes,
        preprocessor_defines = depset(transitive = [
            compilation.defines,
            compilation.local_defines,
        ]),
    )
    action = ACTION_NAMES.c_compile if is_c else ACTION_NAMES.cpp_compile
    return cc_common.get_memory_inefficient_command_line(
        feature_configuration = features,
        action_name = action,
        variables = variables,
    )

def _settings(ctx):
    """The options every summarize of the program shares."""
    args = []
    if ctx.attr._config.files:
        configs = ctx.attr._config.files.to_list()
        if configs:
            args.append("--config-file=" + configs[0].path)
    return args

def _tool_env(tool_files):
    """Where the actions find rematch's built-in models: the models among
    the tool's files, by their path in the execution root. A remote worker
    gets the program as a plain file, not a link into its install prefix,
    so it cannot find them beside itself."""
    for f in tool_files.to_list():
        if f.extension == "yaml" and f.dirname.endswith("share/rematch/models"):
            return {"REMATCH_MODELS_DIR": f.dirname}
    return {}

def _rematch_aspect_impl(target, ctx):
    if ctx.rule.kind not in _RULES or CcInfo not in target:
        return []
    rematch = ctx.executable._rematch
    tool_files = ctx.attr._rematch[DefaultInfo].default_runfiles.files
    env = _tool_env(tool_files)
    config = ctx.attr._config.files
    cc_toolchain = find_cpp_toolchain(ctx)
    features = cc_common.configure_features(
        ctx = ctx,
        cc_toolchain = cc_toolchain,
        requested_features = ctx.features,
        unsupported_features = ctx.disabled_features,
    )
    compilation = target[CcInfo].compilation_context
    deps = [d[RematchInfo] for d in getattr(ctx.rule.attr, "deps", []) if RematchInfo in d]

    srcs = [f for f in getattr(ctx.rule.files, "srcs", [])]
    own_headers = [f for f in srcs if f.extension not in _SOURCE_EXTENSIONS]
    headers = depset(own_headers, transitive = [compilation.headers])
    rsums = []
    for src in srcs:
        if src.extension not in _SOURCE_EXTENSIONS:
            continue
        out = ctx.actions.declare_file("%s.rematch/%s.rsum" % (ctx.label.name, src.short_path))
        args = ctx.actions.args()
        args.add("summarize")
        args.add("--root=.")
        args.add_all(_settings(ctx))
        args.add(src.path)
        args.add("-o", out.path)
        args.add("--")
        args.add_all(_flags(ctx, cc_toolchain, features, compilation, src.extension == "c"))
        ctx.actions.run(
            mnemonic = "RematchSummarize",
            progress_message = "rematch: summarizing %s" % src.short_path,
            executable = rematch,
            arguments = [args],
            inputs = depset([src], transitive = [headers, config, cc_toolchain.all_files]),
            tools = tool_files,
            outputs = [out],
            env = env,
        )
        rsums.append(out)

    link = ctx.actions.declare_file("%s.rematch.rlink" % ctx.label.name)
    args = ctx.actions.args()
    args.add("link")
    args.add_all(rsums)
    args.add_all([d.link for d in deps])
    args.add("-o", link.path)
    ctx.actions.run(
        mnemonic = "RematchLink",
        progress_message = "rematch: linking %s" % ctx.label,
        executable = rematch,
        arguments = [args],
        inputs = rsums + [d.link for d in deps],
        tools = tool_files,
        outputs = [link],
        env = env,
    )

    # The findings another file's facts add are made from facts; a file
    # only a parse can tell (docs/architecture.md) is parsed again with
    # its recorded command: the sources and headers of the whole link are
    # inputs, as they are of a compile.
    sources = depset(
        [f for f in srcs],
        transitive = [headers, config] + [d.sources for d in deps],
    )
    sarif = ctx.actions.declare_file("%s.rematch.sarif" % ctx.label.name)
    args = ctx.actions.args()
    args.add("report")
    args.add(link)
    args.add_all(rsums)
    args.add("--format=sarif")
    args.add("--output=" + sarif.path)
    ctx.actions.run_shell(
        mnemonic = "RematchReport",
        progress_message = "rematch: reporting %s" % ctx.label,
        # Findings (exit 1) are the report, not a failure of the action.
        command = '"$1" "${@:2}"; rc=$?; [ "$rc" -le 1 ] || exit "$rc"',
        arguments = [rematch.path, args],
        inputs = depset([link] + rsums, transitive = [sources, cc_toolchain.all_files]),
        tools = depset([rematch], transitive = [tool_files]),
        outputs = [sarif],
        env = env,
    )
    return [
        RematchInfo(link = link, rsums = rsums, sarif = sarif, sources = sources),
        OutputGroupInfo(rematch = depset([sarif])),
    ]

rematch_aspect = aspect(
    implementation = _rematch_aspect_impl,
    attr_aspects = ["deps"],
    fragments = ["cpp"],
    attrs = {
        "_cc_toolchain": attr.label(
            default = Label("@bazel_tools//tools/cpp:current_cc_toolchain"),
        ),
        "_rematch": attr.label(
            default = Label("@rematch//:rematch"),
            executable = True,
            cfg = "exec",
        ),
        "_config": attr.label(
            default = Label("@rematch//:config"),
            allow_files = True,
        ),
    },
    provides = [RematchInfo],
)

def _rematch_test_impl(ctx):
    sarif = ctx.attr.target[RematchInfo].sarif
    script = ctx.actions.declare_file(ctx.label.name + ".sh")
    ctx.actions.write(
        output = script,
        is_executable = True,
        content = "\n".join([
            "#!/bin/sh",
            "# rematch's findings in %s (its own sources, with the whole" % ctx.attr.target.label,
            "# program of its dependencies): any fails the test.",
            'report="%s"' % sarif.short_path,
            'if grep -q \'"ruleId"\' "$report"; then',
            '  echo "rematch found effects that checkpoint recomputation repeats:"',
            '  grep -E \'"(ruleId|text|uri|startLine)"\' "$report" | grep -v \'"text": "rematch\'',
            "  exit 1",
            "fi",
            'echo "rematch: no findings"',
            "",
        ]),
    )
    return [DefaultInfo(executable = script, runfiles = ctx.runfiles(files = [sarif]))]

rematch_test = rule(
    implementation = _rematch_test_impl,
    doc = "Fails when rematch finds anything in `target`'s own sources " +
          "(with the whole program of its dependencies): the SARIF of " +
          "rematch_aspect's report, so the test itself runs no analysis.",
    attrs = {
        "target": attr.label(aspects = [rematch_aspect], mandatory = True),
    },
    test = True,
)
