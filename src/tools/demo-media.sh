#!/usr/bin/env bash
# Generates the demo course media (small test-pattern videos, covers and an attachment) into
# src/server/demo/media/. The outputs are committed, so ffmpeg is only needed to regenerate
# them: `bash src/tools/demo-media.sh` (Debian: apt-get install ffmpeg fonts-dejavu-core).
#
# At start-up the server copies this folder to DATA_DIR/storage/course/demo/ once the "course"
# demo seed has run (src/server/modules/course/media.ts), and the seed
# (src/server/demo/course.ts) points lessons at /storage/course/demo/<file>. The durations
# below must match DEMO_DURATIONS in src/server/demo/course.ts.
#
#   pattern.mp4     30 s  320x180 H.264 baseline + AAC, faststart   (testsrc2, 440 Hz tone)
#   bars.mp4        24 s  320x180 H.264 baseline + AAC, faststart   (SMPTE bars, 660 Hz tone)
#   pattern.webm    20 s  320x180 VP9 + Opus                        (testsrc2, 550 Hz tone)
#   hls/index.m3u8  24 s  HLS VOD, 4 s fragmented-MP4 segments (H.264 + AAC), init.mp4 + segment-NN.m4s
#                         (testsrc, 330 Hz tone). fMP4 rather than MPEG-TS because .ts files under src/
#                         would be taken for TypeScript by tsc and ESLint; hls.js and Safari play both.
#   cover-*.jpg     480x270 course covers
#   cheatsheet.txt  a lesson attachment
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
out="$root/src/server/demo/media"
command -v ffmpeg >/dev/null || { echo "ffmpeg is not installed (apt-get install ffmpeg)" >&2; exit 1; }

rm -rf "$out"
mkdir -p "$out/hls"

font=""
for f in /usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf; do
  if [ -f "$f" ]; then font="$f"; break; fi
done

# A label and a running clock burnt into the picture (so seeking and resuming are visible);
# just the pattern when no font is available.
label() {
  local text="$1"
  if [ -z "$font" ]; then echo "null"; return; fi
  echo "drawtext=fontfile=$font:text='$text':x=10:y=10:fontsize=18:fontcolor=white:box=1:boxcolor=black@0.6:boxborderw=4,drawtext=fontfile=$font:text='%{pts\\:hms}':x=10:y=h-30:fontsize=16:fontcolor=white:box=1:boxcolor=black@0.6:boxborderw=4"
}

ff() { ffmpeg -hide_banner -loglevel error -y "$@"; }

h264=(-c:v libx264 -profile:v baseline -level 3.0 -preset veryslow -pix_fmt yuv420p -b:v 70k -maxrate 90k -bufsize 180k -g 30 -keyint_min 30 -sc_threshold 0)
aac=(-c:a aac -b:a 32k -ac 1 -ar 44100)

ff -f lavfi -i "testsrc2=size=320x180:rate=15:duration=30" -f lavfi -i "sine=frequency=440:sample_rate=44100:duration=30" \
  -vf "$(label 'Lesson video - MP4')" "${h264[@]}" "${aac[@]}" -movflags +faststart -shortest "$out/pattern.mp4"

ff -f lavfi -i "smptebars=size=320x180:rate=15:duration=24" -f lavfi -i "sine=frequency=660:sample_rate=44100:duration=24" \
  -vf "$(label 'Colour bars - MP4')" "${h264[@]}" "${aac[@]}" -movflags +faststart -shortest "$out/bars.mp4"

ff -f lavfi -i "testsrc2=size=320x180:rate=15:duration=20" -f lavfi -i "sine=frequency=550:sample_rate=48000:duration=20" \
  -vf "$(label 'Lesson video - WebM')" -c:v libvpx-vp9 -b:v 70k -maxrate 90k -bufsize 180k -g 30 -deadline good -cpu-used 2 -row-mt 1 \
  -c:a libopus -b:a 24k -ac 1 -shortest "$out/pattern.webm"

ff -f lavfi -i "testsrc=size=320x180:rate=15:duration=24" -f lavfi -i "sine=frequency=330:sample_rate=44100:duration=24" \
  -vf "$(label 'Streaming - HLS')" "${h264[@]}" -force_key_frames "expr:gte(t,n_forced*2)" "${aac[@]}" -shortest \
  -f hls -hls_time 4 -hls_playlist_type vod -hls_list_size 0 -hls_segment_type fmp4 -hls_fmp4_init_filename init.mp4 \
  -hls_segment_filename "$out/hls/segment-%02d.m4s" "$out/hls/index.m3u8"

# The covers carry the courses' Chinese titles (the demo is a zh-cn site): a CJK font
# (Debian: fonts-noto-cjk); without one, plain colour.
cjk=""
for f in /usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc /usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc; do
  if [ -f "$f" ]; then cjk="$f"; break; fi
done
cover() {
  local name="$1" colour="$2" title="$3" subtitle="$4"
  local vf="null"
  if [ -n "$cjk" ]; then
    vf="drawtext=fontfile=$cjk:text='$title':x=(w-text_w)/2:y=(h-text_h)/2-18:fontsize=44:fontcolor=white:shadowx=2:shadowy=2"
    vf="$vf,drawtext=fontfile=$cjk:text='$subtitle':x=(w-text_w)/2:y=(h/2)+30:fontsize=22:fontcolor=white:shadowx=2:shadowy=2"
  fi
  ff -f lavfi -i "color=c=$colour:size=480x270:duration=1" -frames:v 1 -vf "$vf" -q:v 6 "$out/$name"
}
cover cover-video.jpg "0x2563eb" "网页视频入门" "格式 · 流媒体 · 拖动"
cover cover-study.jpg "0x0b8f63" "高效学习法" "从计划到复盘"
cover cover-english.jpg "0x7c3aed" "英语考试阅读" "三个阅读策略"

cat >"$out/cheatsheet.txt" <<'EOF'
Video formats cheat sheet / 视频格式速查

MP4  (H.264 + AAC)  plays in every browser; add -movflags +faststart so playback starts at once.
WebM (VP9 + Opus)   open format, smaller files; Safari supports it only in recent versions.
HLS  (.m3u8 + .ts)  a playlist of short segments; Safari plays it natively, other browsers
                    need hls.js (Media Source Extensions).

Seeking works when the server answers HTTP range requests (206 Partial Content).
服务器支持 Range 请求（206 部分内容）时，播放器才能随意拖动进度。
EOF

du -ab "$out" | sort -k2
